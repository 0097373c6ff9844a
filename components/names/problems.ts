/**
 * How a component reports problems of its args: each `check…Args` returns `[field, value, problem]`
 * triples (the stack config reports the same problems under its own keys), and the constructor
 * throws one error naming every problem before it declares anything.
 */

/** One problem of a component's args: the field, the value given, what is wrong and the fix. */
export type ArgProblem = [field: string, value: unknown, problem: string];

/**
 * The one error a constructor throws: `<Type> "<name>": <field>: <value as JSON> <problem>; <next>`,
 * a field left out shown as `(not set)`, as the stack config shows it.
 */
export function argsError(type: string, name: string, problems: ArgProblem[]): Error {
  return new Error(
    `${type} "${name}": ` +
      problems.map(([f, v, p]) => `${f}: ${v === undefined ? "(not set)" : JSON.stringify(v)} ${p}`).join("; "),
  );
}

/** Throws `argsError` when there is any problem. */
export function throwIfArgProblems(type: string, name: string, problems: ArgProblem[]): void {
  if (problems.length > 0) throw argsError(type, name, problems);
}

/**
 * Checks one optional field: when `value` is given and `check` finds a problem, adds
 * `[field, value, problem]` to `problems`. Fields left out are not checked (they take defaults).
 */
export function checkField<T>(
  problems: ArgProblem[],
  field: string,
  value: T | undefined,
  check: (v: T) => string | undefined,
): void {
  if (value === undefined) return;
  const p = check(value);
  if (p) problems.push([field, value, p]);
}
