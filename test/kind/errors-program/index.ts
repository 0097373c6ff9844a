/**
 * One KindCluster used the way a library user would, outside the stack programs: the kind tier
 * (test/kind/kind-errors.test.ts) runs it with a stopped Docker engine, a config kind refuses, and
 * a node image the engine does not have, and checks that each fails with one clear message.
 * Config (namespace kinderr): name, nodeImage, duplicateHostPort (two mappings on one host port).
 */
import * as pulumi from "@pulumi/pulumi";
import { KindCluster } from "../../../components/kind";

const config = new pulumi.Config("kinderr");
const cluster = new KindCluster(config.require("name"), {
  nodeImage: config.require("nodeImage"),
  workers: 0,
  disableDefaultCNI: false,
  extraPortMappings: config.getBoolean("duplicateHostPort")
    ? [
        { containerPort: 30080, hostPort: 38080 },
        { containerPort: 30081, hostPort: 38080 },
      ]
    : undefined,
  readyTimeoutSeconds: 120,
});

export const endpoint = cluster.endpoint;
