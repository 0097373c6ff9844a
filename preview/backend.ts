/**
 * The file:// backend URL every iko-plus command uses for a local state folder (scripts/pulumi.sh
 * writes the same query in shell). `metadata=skip`: Pulumi's file backend (gocloud's fileblob)
 * otherwise writes a `<file>.attrs` sidecar beside each checkpoint and its `.bak`, in place and not
 * atomically, so a `pulumi up` killed at the wrong moment leaves an empty sidecar and every later
 * command fails with `failed to load checkpoint: EOF`. The checkpoint itself is written to a
 * temporary file and renamed, so it survives a kill. Skipping the sidecar also saves two writes
 * per checkpoint.
 */
export function fileBackendUrl(dir: string): string {
  return `file://${dir}?metadata=skip`;
}
