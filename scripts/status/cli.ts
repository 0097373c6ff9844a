/**
 * `npm run status [-- --json]`: what runs where for one stack (STACK, default dev). scripts/pulumi.sh
 * pipes the stack's outputs (`pulumi stack output --json --show-secrets`) into this process on
 * stdin, so the kubeconfigs are never on a command line or on disk; the view prints no secret.
 * Exit code: 0 healthy, 1 something is unhealthy (listed last), 2 the view could not be made.
 */
import { StackOutputs, collect } from "./collect";
import { problems, renderJson, renderText } from "./report";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes("--json");
  const stackArg = argv.indexOf("--stack");
  const stack = stackArg >= 0 ? argv[stackArg + 1] : undefined;
  const unknown = argv.filter((a, i) => a !== "--json" && a !== "--stack" && i !== stackArg + 1);
  if (!stack || unknown.length) {
    console.error(`usage: npm run status [-- --json]${unknown.length ? ` (unknown: ${unknown.join(" ")})` : ""}`);
    return 2;
  }
  const text = await readStdin();
  let outputs: StackOutputs;
  try {
    outputs = JSON.parse(text) as StackOutputs;
  } catch {
    console.error(`status: the stack's outputs are not JSON; has \`npm run up\` of ${stack} run?`);
    return 2;
  }
  if (!outputs.program) {
    console.error(`status: stack ${stack} has no outputs yet; run \`STACK=${stack} npm run up\` first`);
    return 2;
  }
  const report = await collect(stack, outputs);
  process.stdout.write(json ? renderJson(report) : renderText(report));
  return problems(report).length ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`status: ${(e as Error).message.split("\n")[0]}`);
    process.exit(2);
  },
);
