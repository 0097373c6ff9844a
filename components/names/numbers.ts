/**
 * Number rules shared by every component and the stack config: one whole-number range check
 * (counts, ports, ids, waits) and Kubernetes' NodePort range.
 */

/**
 * A check of a whole number from `min` to `max`: returns `must be a whole number from <min> to
 * <max><fix>` for anything else (a fraction, NaN, a value that is no number), else `undefined`.
 * `fix` is appended as given, e.g. `" (the NodePort range)"` or `"; raise it by one to rotate"`.
 */
export function checkWholeNumber(min: number, max: number, fix = ""): (value: unknown) => string | undefined {
  return (value) =>
    typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}${fix}`;
}

/** Kubernetes' default NodePort range (kube-apiserver `--service-node-port-range`). */
export const NODE_PORT_MIN = 30000;
export const NODE_PORT_MAX = 32767;

/** A NodePort: a whole number in Kubernetes' default range. */
export const checkNodePort = checkWholeNumber(NODE_PORT_MIN, NODE_PORT_MAX, " (Kubernetes' NodePort range)");
