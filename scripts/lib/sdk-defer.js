// @ts-check
/**
 * What scripts/sdk-preload.js installs (Pulumi.yaml `runtime.options.nodeargs` preloads it into the
 * program's Node process, before Pulumi's runner loads the SDK). The SDK's runtime index loads two
 * large packages at start-up that a run of this program needs late or never: `typescript` (its
 * closure serialiser parses the functions of dynamic providers with it) and `@npmcli/arborist`
 * (`computeCodePaths`, which packages node_modules for function serialisation into cloud
 * functions; this program never calls it). Loading and compiling them is about 0.65 s of CPU
 * before the program registers its first resource, on every `pulumi up` and `preview` (testbed/bench/:
 * the program's start is on the critical path).
 *
 * Here the SDK's own requires of those two get a stand-in that loads the real module on first use,
 * so nothing changes but when they load. Requires from anywhere else are untouched.
 */
const Module = require("module");
const path = require("path");

/** Packages loaded on first use when the Pulumi SDK requires them. */
const DEFERRED = new Set(["typescript", "@npmcli/arborist"]);

/** The SDK's own files (a parent under `@pulumi/pulumi/`). */
const SDK_DIR = `${path.sep}@pulumi${path.sep}pulumi${path.sep}`;

/**
 * A stand-in for a module's exports that loads it (`load`) on the first property read, `in`, key
 * listing or descriptor query, and from then on answers from the real exports. `__esModule` reads
 * `true` until then, so TypeScript's `__importStar` returns the stand-in itself instead of copying
 * (and so loading) every export.
 * @param {() => Record<PropertyKey, unknown>} load
 * @returns {object}
 */
function deferredExports(load) {
  /** @type {Record<PropertyKey, unknown> | undefined} */
  let real;
  const target = () => (real ??= load());
  return new Proxy(
    {},
    {
      get: (_, key) => (key === "__esModule" && real === undefined ? true : Reflect.get(target(), key)),
      has: (_, key) => key in target(),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(target(), key);
        // A proxy may not report a non-configurable property its (empty) target lacks.
        return d && { ...d, configurable: true };
      },
    },
  );
}

/**
 * Whether `request` resolves from `fromFile` (a stand-in for a package that is not installed would
 * turn the SDK's own fallback, a caught require error, into a later failure).
 * @param {string} request
 * @param {string} fromFile
 */
function resolvable(request, fromFile) {
  try {
    require.resolve(request, { paths: [path.dirname(fromFile)] });
    return true;
  } catch {
    return false;
  }
}

/** Wraps `Module._load` so the Pulumi SDK's requires of DEFERRED packages return stand-ins. */
function deferSdkPackages() {
  /** One stand-in per package: a second SDK require gets the same object, as require would. */
  const stands = new Map();
  // @ts-expect-error Module._load is Node's internal loader entry, not in @types/node.
  const load = Module._load;
  // @ts-expect-error as above
  Module._load = function (
    /** @type {string} */ request,
    /** @type {NodeJS.Module | undefined} */ parent,
    /** @type {boolean} */ isMain,
  ) {
    if (!DEFERRED.has(request) || !parent?.filename?.includes(SDK_DIR)) return load.call(this, request, parent, isMain);
    if (!stands.has(request)) {
      if (!resolvable(request, parent.filename)) return load.call(this, request, parent, isMain);
      stands.set(
        request,
        deferredExports(() => load.call(this, request, parent, isMain)),
      );
    }
    return stands.get(request);
  };
}

module.exports = { deferSdkPackages, deferredExports };
