/**
 * Helm post-renderer entry point: reads the rendered chart on stdin, writes the patched chart on
 * stdout. Its one argument is the base64 JSON of a RemoteKubeconfigPatch (see postrender.ts).
 */
import { RemoteKubeconfigPatch, patchOperatorManifest } from "./postrender";

function main(): void {
  const encoded = process.argv[2];
  if (!encoded) {
    process.stderr.write("usage: postrender-cli <base64 JSON parameters> < manifest\n");
    process.exit(2);
  }
  const params = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as RemoteKubeconfigPatch;
  const chunks: Buffer[] = [];
  process.stdin.on("data", (c: Buffer) => chunks.push(c));
  process.stdin.on("end", () => {
    try {
      process.stdout.write(patchOperatorManifest(Buffer.concat(chunks).toString("utf8"), params));
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    }
  });
}

main();
