/**
 * Pure: renders stack summaries (preview/summary.ts) as one Markdown PR comment: a table of counts
 * per stack first, then each stack's changed resources with their changed property paths, trimmed
 * to fit GitHub's 65,536-character comment limit with a line saying what was left out.
 */
import { destructiveLine } from "./destructive";
import { PropertyChange, ResourceChange, StackSummary } from "./summary";

/** GitHub's limit on an issue or pull-request comment body. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** The hidden marker the workflow finds its own comment by. */
export const COMMENT_MARKER = "<!-- iko-plus-preview -->";

export interface RenderOptions {
  /** Heading line. Default: "Pulumi preview". */
  title?: string;
  /** A paragraph under the heading (what was compared). Default: none. */
  intro?: string;
  /** Largest output, in characters. Default: 60,000 (room under GitHub's 65,536 for a wrapper). */
  maxChars?: number;
  /** First line of the output. Default: COMMENT_MARKER; "" for none. */
  marker?: string;
  /** Strings replaced by `[secret]` wherever they appear (a last guard; values are masked before). Default: none. */
  redact?: string[];
  /** Changed properties listed per resource before "… N more". Default: 12. */
  maxPropertiesPerResource?: number;
}

/** Text safe inside a Markdown table cell (pipes escaped, no line breaks). */
export function cell(s: string): string {
  return s.replace(/\r?\n/g, " ").replace(/\|/g, "\\|");
}

/** Inline code that survives backticks inside. */
export function code(s: string): string {
  return s.includes("`") ? `\`\` ${s} \`\`` : `\`${s}\``;
}

/** One property change as text, e.g. `spec.type` "LoadBalancer" → "NodePort". */
export function describeProperty(p: PropertyChange): string {
  let what: string;
  if (p.secret)
    what = p.kind === "add" ? "added (secret)" : p.kind === "delete" ? "removed (secret)" : "changed (secret)";
  else if (p.kind === "add") what = p.new !== undefined ? `added ${code(p.new)}` : "added";
  else if (p.kind === "delete") what = p.old !== undefined ? `removed ${code(p.old)}` : "removed";
  else if (p.old !== undefined && p.new !== undefined) what = `${code(p.old)} → ${code(p.new)}`;
  else if (p.new !== undefined) what = `→ ${code(p.new)}`;
  else what = "changed";
  return `${code(p.path)} ${what}${p.replaces ? " **(forces replacement)**" : ""}`;
}

/** One table row for a changed resource. */
export function resourceRow(r: ResourceChange, maxProps = 12): string {
  const props = r.properties.slice(0, maxProps).map(describeProperty);
  if (r.properties.length > maxProps) props.push(`… ${r.properties.length - maxProps} more properties`);
  const changes = r.op === "create" ? "(new)" : r.op === "delete" ? "(deleted)" : props.join("<br>") || "—";
  return `| ${r.op} | ${cell(code(r.name))} | ${cell(code(r.type))} | ${cell(changes)} |`;
}

function changeTotal(s: StackSummary): number {
  return s.counts.create + s.counts.update + s.counts.replace + s.counts.delete;
}

/** "2 to update, 1 to create" (Pulumi's wording), or "no changes". */
export function stackHeadline(s: StackSummary): string {
  if (s.errors.length) return "preview failed";
  const parts = (["create", "update", "replace", "delete"] as const)
    .filter((k) => s.counts[k] > 0)
    .map((k) => `${s.counts[k]} to ${k}`);
  return parts.length ? parts.join(", ") : "no changes";
}

/** The summary table: one row per stack. */
export function countsTable(summaries: StackSummary[]): string {
  const rows = summaries.map((s) =>
    s.errors.length
      ? `| ${code(s.stack)} | preview failed | | | | |`
      : `| ${code(s.stack)} | ${s.counts.create} | ${s.counts.update} | ${s.counts.replace} | ${s.counts.delete} | ${s.counts.same} |`,
  );
  return ["| stack | create | update | replace | delete | unchanged |", "|---|---:|---:|---:|---:|---:|", ...rows].join(
    "\n",
  );
}

const TABLE_HEAD = "| op | resource | type | changed properties |\n|---|---|---|---|";
const MAX_ERROR = 1_500;

const MAX_ERRORS = 5;

function errorBlock(errors: string[]): string {
  const more = errors.length > MAX_ERRORS ? `\n\n… ${errors.length - MAX_ERRORS} more errors` : "";
  const text =
    errors
      .slice(0, MAX_ERRORS)
      .map((e) => (e.length > MAX_ERROR ? `${e.slice(0, MAX_ERROR)}…` : e))
      .join("\n\n")
      .replace(/```/g, "'''") + more;
  return `The preview failed:\n\n\`\`\`\n${text}\n\`\`\``;
}

function redactAll(text: string, redact: string[]): string {
  let out = text;
  for (const r of redact.filter((x) => x.length >= 4).sort((a, b) => b.length - a.length))
    out = out.split(r).join("[secret]");
  return out;
}

/**
 * The whole comment. Never longer than `maxChars`: resources that do not fit are left out, and
 * each stack that lost some says how many, as does a last line for the whole comment.
 */
export function renderMarkdown(summaries: StackSummary[], opts: RenderOptions = {}): string {
  const maxChars = opts.maxChars ?? 60_000;
  const maxProps = opts.maxPropertiesPerResource ?? 12;
  const redact = opts.redact ?? [];
  const fix = (s: string) => redactAll(s, redact);
  const marker = opts.marker ?? COMMENT_MARKER;
  const head = [
    ...(marker ? [marker] : []),
    `### ${opts.title ?? "Pulumi preview"}`,
    ...(opts.intro ? ["", opts.intro] : []),
    "",
    countsTable(summaries),
  ].join("\n");
  const out: string[] = [fix(head)];
  let used = out[0].length;
  // Room kept for what must still follow: this stack's "not shown" line, each later stack's
  // heading and line, and the last line for the whole comment.
  const NOTE = 200 + 3 * Math.max(0, ...summaries.map((s) => s.stack.length));
  const reserve = (stacksLeft: number) => NOTE * (stacksLeft + 2);
  let omittedTotal = 0;
  const omittedBy: string[] = [];
  const push = (text: string) => {
    out.push(text);
    used += text.length;
  };
  summaries.forEach((s, i) => {
    const room = (extra: number) => used + extra + reserve(summaries.length - i - 1) <= maxChars;
    const heading = fix(`\n\n#### ${code(s.stack)}: ${stackHeadline(s)}`);
    const errors = s.errors.length ? fix(`\n\n${errorBlock(s.errors)}`) : "";
    let omitted = 0;
    if (!room(heading.length + errors.length + TABLE_HEAD.length + 2)) {
      push(heading);
      omitted = s.resources.length;
    } else {
      push(heading + errors);
      if (s.destructive.length) push(fix(`\n\n${s.destructive.map(destructiveLine).join("\n")}`));
      if (s.resources.length) push(`\n\n${TABLE_HEAD}`);
      for (const r of s.resources) {
        const row = fix(`\n${resourceRow(r, maxProps)}`);
        if (omitted === 0 && room(row.length)) push(row);
        else omitted++;
      }
    }
    if (omitted) {
      push(
        `\n\n_… ${omitted} more ${omitted === 1 ? "resource" : "resources"} of ${code(s.stack)} not shown (comment size limit)._`,
      );
      omittedTotal += omitted;
      omittedBy.push(`${code(s.stack)}: ${omitted}`);
    }
  });
  if (omittedTotal) {
    out.push(
      `\n\n**… ${omittedTotal} more ${omittedTotal === 1 ? "resource" : "resources"} not shown** (${omittedBy.join(", ")}); the counts above are complete.`,
    );
  }
  const text = out.join("") + "\n";
  // A last guard: a summary is never longer than asked, even with absurd inputs.
  return text.length <= maxChars
    ? text
    : `${text.slice(0, maxChars - 40)}\n\n**… output cut at ${maxChars} characters**\n`;
}

/** Changes across all stacks (0: nothing to review). */
export function totalChanges(summaries: StackSummary[]): number {
  return summaries.reduce((n, s) => n + changeTotal(s), 0);
}
