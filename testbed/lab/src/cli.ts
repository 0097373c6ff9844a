/**
 * Fleet lab CLI: node -r ts-node/register/transpile-only testbed/lab/src/cli.ts <command>
 *
 *   up              start the member clusters and Karmada (fails if a lab is already running)
 *   down            stop exactly the processes `up` started, verify, remove the lab folder
 *   status [--json] processes, memory, /readyz of every cluster; exit 1 unless healthy
 *   kubeconfig NAME print the admin kubeconfig path of a member (or "karmada")
 *   stop OWNER/COMPONENT   stop one component (e.g. ikoclone/kube-apiserver, karmada/karmada-controller-manager)
 *   start OWNER/COMPONENT  start it again, same command line, port and certs; waits until it serves
 *
 * Settings: see testbed/lab/src/config.ts (IKO_LAB_MEMBERS, IKO_LAB_KARMADA, IKO_LAB_DIR, ...).
 */
import { LabError, labDirFromEnv, loadConfig } from "./config";
import { parseComponent, startComponent, stopComponent } from "./control";
import { down, status, up } from "./lab";
import { readLabState } from "./state";

const USAGE =
  "usage: cli.ts up | down | status [--json] | kubeconfig <name> | stop <owner>/<component> | start <owner>/<component>";

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "up": {
      const cfg = loadConfig();
      console.log(
        `lab up: ${cfg.members.length} member(s) [${cfg.members.join(", ")}]${cfg.karmada ? " + karmada" : ""} in ${cfg.labDir}`,
      );
      const state = await up(cfg, (m) => console.log(m));
      const s = await status(cfg.labDir);
      console.log(
        `lab up in ${state.upSeconds}s: ${state.processes.length} processes, RSS ${Math.round(s.totalRssMiB)} MiB`,
      );
      for (const c of [...state.members, ...(state.karmada ? [state.karmada] : [])]) {
        console.log(`  ${c.name.padEnd(10)} ${c.server.padEnd(24)} ${c.kubeconfigPath}`);
      }
      return 0;
    }
    case "down": {
      const dir = labDirFromEnv();
      const r = await down(dir);
      console.log(
        r.found
          ? `lab down: stopped ${r.stopped} processes, removed ${dir} in ${r.seconds.toFixed(1)}s`
          : `no lab at ${dir}`,
      );
      return 0;
    }
    case "status": {
      const dir = labDirFromEnv();
      const s = await status(dir);
      if (rest.includes("--json")) {
        console.log(
          JSON.stringify(
            {
              healthy: s.healthy,
              totalRssMiB: Math.round(s.totalRssMiB),
              readiness: s.readiness,
              rows: s.rows,
              state: s.state,
            },
            null,
            2,
          ),
        );
        return s.healthy ? 0 : 1;
      }
      if (!s.state) {
        console.log(`no lab at ${dir}`);
        return 1;
      }
      console.log(
        `lab ${s.state.status} at ${dir} (started ${s.state.startedAt}${s.state.upSeconds ? `, up took ${s.state.upSeconds}s` : ""})`,
      );
      for (const r of s.rows) {
        console.log(
          `  ${r.owner.padEnd(10)} ${r.component.padEnd(30)} pid ${String(r.pid).padEnd(8)} ${r.alive ? `${r.rssMiB.toFixed(0).padStart(5)} MiB` : "DEAD"}`,
        );
      }
      for (const [name, v] of Object.entries(s.readiness)) console.log(`  ${name.padEnd(10)} readyz: ${v}`);
      console.log(`total RSS ${Math.round(s.totalRssMiB)} MiB; ${s.healthy ? "healthy" : "NOT healthy"}`);
      return s.healthy ? 0 : 1;
    }
    case "kubeconfig": {
      const state = readLabState();
      const name = rest[0];
      const c = name === state.karmada?.name ? state.karmada : state.members.find((m) => m.name === name);
      if (!c)
        throw new LabError(
          `no cluster "${name}" in the lab (${[...state.members.map((m) => m.name), state.karmada?.name].filter(Boolean).join(", ")})`,
        );
      console.log(c.kubeconfigPath);
      return 0;
    }
    case "stop":
    case "start": {
      if (!rest[0]) throw new LabError(`${cmd}: name a component, e.g. ikoclone/kube-apiserver`);
      const { owner, component } = parseComponent(rest[0]);
      const t0 = Date.now();
      const rec =
        cmd === "stop"
          ? await stopComponent(labDirFromEnv(), owner, component)
          : await startComponent(labDirFromEnv(), owner, component);
      const verb = cmd === "stop" ? "stopped" : "started";
      console.log(`${verb} ${owner}/${component} (pid ${rec.pid}) in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof LabError) console.error(`lab: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
