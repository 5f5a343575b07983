// How the reporter benchmarks run a command: wall and CPU time and peak memory (through /usr/bin/time), and
// the reporter's Node flags and environment as the registry module's script gives them.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const TIME = fs.existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/** Wall time; CPU time (user + system, the command's children included: find); peak RSS of its largest process. */
export type Run = { ms: number; cpuMs: number | null; rssKb: number | null };

export function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Run {
  const t0 = process.hrtime.bigint();
  const r = TIME
    ? spawnSync(TIME, ["-f", "%U %S %M", cmd, ...args], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", env })
    : spawnSync(cmd, args, { stdio: ["ignore", "ignore", "ignore"], env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr ?? ""}`);
  const [user, sys, rss] = TIME ? String(r.stderr).trim().split("\n").pop()!.split(" ").map(Number) : [];
  return {
    ms,
    cpuMs: Number.isFinite(user + sys) ? (user + sys) * 1000 : null,
    rssKb: Number.isFinite(rss) ? rss : null,
  };
}

const RUN_SCRIPT = fs.readFileSync(path.join(process.cwd(), "deploy/coder/scripts/run.sh.tftpl"), "utf8");
/** Node's flags as the registry module's script runs the reporter (`"$NODE" <flags> "$file" --state-dir`). */
export const NODE_FLAGS = (() => {
  const m = /"\$NODE"((?: --[\w-]+=\S+)*) "\$\w+" --state-dir/.exec(RUN_SCRIPT);
  if (!m) throw new Error('deploy/coder/scripts/run.sh.tftpl: no `"$NODE" ... "$file" --state-dir` line');
  return m[1].trim().split(" ").filter(Boolean);
})();
/**
 * The environment as the script gives it to the reporter: the variables it unsets (`env -u NAME`) are handed
 * over in the reporter's own (NODE_EXTRA_CA_CERTS: Node reads that file at every start, the reporter only when
 * it sends); Node's compile cache, where the script keeps one, in a folder of the bench's own (removed at exit).
 */
export const REPORTER_ENV = (() => {
  const env = { ...process.env };
  for (const [, name] of RUN_SCRIPT.matchAll(/\benv -u (\w+)/g)) {
    if (name === "NODE_EXTRA_CA_CERTS" && env[name]) env.STORAGE_REPORTER_EXTRA_CA_CERTS = env[name];
    delete env[name];
  }
  delete env.NODE_COMPILE_CACHE;
  if (/\bNODE_COMPILE_CACHE=/.test(RUN_SCRIPT)) {
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-compile-cache-"));
    process.on("exit", () => fs.rmSync(cache, { recursive: true, force: true }));
    env.NODE_COMPILE_CACHE = cache;
  }
  return env;
})();

/** The Node.js that runs the reporter: BENCH_NODE (e.g. the runtime the dashboard serves), else `node`. */
export const NODE = process.env.BENCH_NODE ?? "node";

/** One dry run of the built reporter as the module's script runs it (`env` changes its environment), report dropped. */
export const runReporter = (bundle: string, home: string, args = "", env: Record<string, string | undefined> = {}) =>
  timed(
    "sh",
    ["-c", `exec "$2" ${NODE_FLAGS.join(" ")} "$0" --dry-run --home "$1" ${args} > /dev/null`, bundle, home, NODE],
    { ...REPORTER_ENV, ...env },
  );

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
