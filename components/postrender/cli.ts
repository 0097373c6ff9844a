/**
 * Helm post-renderer entry point: reads the rendered chart on stdin, writes the patched chart on
 * stdout. Its arguments are the patch module's path (exporting `postRender(manifest, params)`) and
 * the base64 JSON of its parameters (see wrapper.ts). Imports only Node's modules.
 */
import * as path from "path";

type PostRender = (manifest: string, params: unknown) => string;

function main(): void {
  const [modulePath, encoded] = process.argv.slice(2);
  if (!modulePath || !encoded) {
    process.stderr.write("usage: cli <patch module> <base64 JSON parameters> < manifest\n");
    process.exit(2);
  }
  const params: unknown = JSON.parse(Buffer.from(encoded, "base64").toString("utf8"));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the patch module is chosen at run time
  const patch = require(path.resolve(modulePath)) as { postRender?: PostRender };
  if (typeof patch.postRender !== "function") {
    process.stderr.write(`post-render: ${modulePath} exports no postRender function\n`);
    process.exit(2);
  }
  const chunks: Buffer[] = [];
  process.stdin.on("data", (c: Buffer) => chunks.push(c));
  process.stdin.on("end", () => {
    try {
      process.stdout.write((patch.postRender as PostRender)(Buffer.concat(chunks).toString("utf8"), params));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    }
  });
}

main();
