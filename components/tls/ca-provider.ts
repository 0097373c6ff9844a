/**
 * FleetCa: a Pulumi dynamic resource that generates the fleet CA once per stack (node-forge, no
 * provider plugin needed). The CA lives only in the stack's state: the private key output is a
 * secret from the moment the provider returns it (`additionalSecretOutputs`), so the engine
 * encrypts it before writing state; read() never regenerates it and delete() has nothing to
 * remove. Every input change replaces the CA (a new key pair).
 *
 * This module is serialised into the dynamic provider process: the provider's methods only call
 * functions that `require` their modules inside their bodies.
 */
import * as pulumi from "@pulumi/pulumi";
import { GeneratedCa, ResolvedCaOptions, generateFleetCa } from "./ca";

export type FleetCaInputs = ResolvedCaOptions;
export type FleetCaState = FleetCaInputs & GeneratedCa;

/** Inputs whose change replaces the CA (all of them). */
export const CA_INPUTS: (keyof FleetCaInputs)[] = [
  "commonName",
  "organization",
  "validityDays",
  "keyBits",
  "generation",
];

/** The outputs kept secret in state. */
export const CA_SECRET_OUTPUTS = ["keyPem"];

export class FleetCaProvider implements pulumi.dynamic.ResourceProvider {
  async diff(_id: string, olds: FleetCaState, news: FleetCaInputs): Promise<pulumi.dynamic.DiffResult> {
    const replaces = CA_INPUTS.filter((k) => olds[k] !== news[k]);
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
  }

  async create(inputs: FleetCaInputs): Promise<pulumi.dynamic.CreateResult> {
    const ca = generateFleetCa(inputs);
    const outs: FleetCaState = { ...inputs, ...ca };
    return { id: ca.serialNumber, outs };
  }

  async read(id: string, props: FleetCaState): Promise<pulumi.dynamic.ReadResult> {
    // The CA exists only in state: what state holds is what exists.
    return { id, props };
  }

  async delete(): Promise<void> {
    // Nothing outside the state to remove.
  }
}

type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

export class FleetCa extends pulumi.dynamic.Resource {
  /** The CA certificate (PEM, public). */
  declare public readonly certPem: pulumi.Output<string>;
  /** The CA private key (PEM). Secret. */
  declare public readonly keyPem: pulumi.Output<string>;
  declare public readonly serialNumber: pulumi.Output<string>;
  declare public readonly notAfter: pulumi.Output<string>;
  declare public readonly fingerprintSha256: pulumi.Output<string>;

  constructor(name: string, args: Inputs<FleetCaInputs>, opts?: pulumi.CustomResourceOptions) {
    super(
      new FleetCaProvider(),
      name,
      {
        ...args,
        certPem: undefined,
        keyPem: undefined,
        serialNumber: undefined,
        notBefore: undefined,
        notAfter: undefined,
        fingerprintSha256: undefined,
      },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...CA_SECRET_OUTPUTS] },
      "iko-plus-tls",
      "FleetCa",
    );
  }
}
