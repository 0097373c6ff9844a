// The entry point Pulumi runs (Pulumi.yaml `main`, runtime option typescript: false): compiles the
// TypeScript program into .iko-plus/program/<key>/ when its sources changed (scripts/program-build.js)
// and runs that JavaScript. The stack outputs are index.ts's exports.
const { ensureProgramBuild } = require("./scripts/program-build");

// Pulumi's runner installs source-map-support, and the SDK formats a stack trace for every resource
// (its source position) and every promise it tracks: source-map-support maps each frame, through
// the SDK's own .js.map files, to TypeScript sources the SDK does not ship, and our program is
// compiled without source maps. V8's own formatting gives the same frames at the positions of the
// JavaScript that runs, for less CPU (testbed/bench/: the program's start is on every run's critical path).
Error.prepareStackTrace = undefined;

const build = ensureProgramBuild(__dirname, { log: (msg) => console.log(msg) });
module.exports = require(`${build}/index.js`);
