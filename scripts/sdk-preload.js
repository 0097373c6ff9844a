// @ts-check
// Preloaded into the program's Node process by Pulumi.yaml (`runtime.options.nodeargs`), before
// Pulumi's runner loads the SDK: the SDK's own requires of `typescript` and `@npmcli/arborist` load
// on first use instead of at start-up. See scripts/lib/sdk-defer.js.
require("./lib/sdk-defer").deferSdkPackages();
