// The entry point Pulumi runs (Pulumi.yaml `main`, runtime option typescript: false): compiles the
// TypeScript program into .iko-plus/program/<key>/ when its sources changed (scripts/program-build.js)
// and runs that JavaScript. The stack outputs are index.ts's exports.
const { ensureProgramBuild } = require("./scripts/program-build");

const build = ensureProgramBuild(__dirname, { log: (msg) => console.log(msg) });
module.exports = require(`${build}/index.js`);
