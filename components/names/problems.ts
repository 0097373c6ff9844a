/**
 * How a component reports problems of its args: each `check…Args` returns `[field, value, problem]`
 * triples (the stack config reports the same problems under its own keys), and the constructor
 * throws one error naming every problem before it declares anything.
 */

/** One problem of a component's args: the field, the value given, what is wrong and the fix. */
export type ArgProblem = [field: string, value: unknown, problem: string];

/** The one error a constructor throws: `<Type> "<name>": <field>: <value as JSON> <problem>; <next>`. */
export function argsError(type: string, name: string, problems: ArgProblem[]): Error {
  return new Error(`${type} "${name}": ` + problems.map(([f, v, p]) => `${f}: ${JSON.stringify(v)} ${p}`).join("; "));
}

/** Throws `argsError` when there is any problem. */
export function throwIfArgProblems(type: string, name: string, problems: ArgProblem[]): void {
  if (problems.length > 0) throw argsError(type, name, problems);
}
