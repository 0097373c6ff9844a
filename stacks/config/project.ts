/**
 * The project's config namespace and its programs: what every program's config reads keys under
 * (`iko-plus:<key>`), in one module that the per-program config modules share.
 */
export const PROJECT = "iko-plus";
export const PROGRAMS = ["wfh", "fleet", "region"] as const;
export type ProgramName = (typeof PROGRAMS)[number];
