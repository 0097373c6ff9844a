/**
 * iko-plus: the Pulumi program. The stack's config names the stack program (`iko-plus:program`:
 * "wfh", the default, "fleet" or "region"); it is validated before any resource is declared.
 *
 * The stack outputs are exactly the outputs of the program that ran (docs/configuration.md, "Stack
 * outputs"), so a stack never lists, or warns about, the outputs of the other programs.
 */
import { definedOutputs, runProgram } from "./stacks/program";

export = runProgram().then(definedOutputs);
