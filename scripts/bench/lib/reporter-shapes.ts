// `npm run bench -- reporter --shapes`: the built reporter against `du -sx` on homes of five shapes, whole
// processes, warm cache, interleaved, medians, with the reporter's peak RSS and whether its whole home is du's
// (du -sxB1 bytes, du -sx --inodes entries); one table at the end. The dry runs find the native scanner installed
// in a state folder of their own, as a scheduled run does.
//   --skip-2m (or BENCH_SKIP_2M=1) leaves out the 2-million-entry home (its generation takes minutes).
//   BENCH_BASELINE=/path/reporter.mjs runs that bundle too, in the same rounds (before and after a change);
//   BENCH_BASELINE_ENV="NAME=value ..." changes its environment (`NODE_COMPILE_CACHE=`: without the cache).
//   BENCH_NODE=/path/to/node runs the reporter with that Node.js (e.g. the runtime the dashboard serves).
//   BENCH_RUNS=n (default 5), BENCH_KEEP=/some/dir keeps the homes there and reuses them on the next run.
//   --instructions also counts the instructions of one run of each (valgrind; not the 2-million-entry home,
//   which takes minutes under it): on a loaded machine, the figure that compares two builds.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { recordMeasure } from "../../lib/bench-results";
import { deepHome, developerHome, inodes, largeFilesHome, modulesHome } from "./home-shapes";
import { instructions, VALGRIND } from "./instructions";
import { NODE, NODE_FLAGS, REPORTER_ENV, TIME, median, runReporter, timed, type Run } from "./reporter-process";

type Shape = { key: string; label: string; make: (home: string) => unknown };

const SHAPES: Shape[] = [
  { key: "deep", label: "(a) small files, 12 folders deep", make: deepHome },
  { key: "large", label: "(b) a few large files (fallocate)", make: largeFilesHome },
  { key: "modules", label: "(c) 50 module folders", make: modulesHome },
  { key: "100k", label: "(d) developer's home, 100k", make: (h) => developerHome(h, 100_000) },
  { key: "2m", label: "(e) developer's home, 2M", make: (h) => developerHome(h, 2_000_000) },
];

/** Other disk-usage tools, timed beside du where installed (ncdu exports to /dev/null, gdu prints a summary). */
const OTHERS: [string, (home: string) => string[]][] = [
  ["ncdu", (home) => ["-x", "-0", "-o", "/dev/null", home]],
  ["gdu", (home) => ["-x", "-n", "-s", home]],
];

/** BENCH_BASELINE_ENV's assignments; an empty value unsets the variable. */
const BASELINE_ENV: Record<string, string | undefined> = Object.fromEntries(
  (process.env.BENCH_BASELINE_ENV ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1) || undefined]),
);

const installed = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0;
const ms = (x: number) => `${Math.round(x).toLocaleString("en")} ms`;

/** The home generated (or reused under BENCH_KEEP), with its entry count. */
function shapeHome(dir: string, shape: Shape): { home: string; entries: number } {
  const home = path.join(dir, shape.key, "home");
  const done = path.join(dir, shape.key, "entries");
  if (fs.existsSync(done)) return { home, entries: Number(fs.readFileSync(done, "utf8")) };
  fs.rmSync(path.dirname(home), { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const g0 = Date.now();
  shape.make(home);
  const entries = inodes(home);
  fs.writeFileSync(done, String(entries));
  console.log(`${shape.label}: ${entries} entries generated in ${((Date.now() - g0) / 1000).toFixed(0)} s`);
  return { home, entries };
}

/** Whether the report's whole home is du's: `du -sxB1` bytes and `du -sx --inodes` entries. */
/**
 * A state folder (outside every home) where `bundle` has installed its native scanner, as a scheduled run finds
 * it: a dry run only reads the installed copy there, and without one writes a temporary copy at every run (3 ms
 * that a scheduled run does not pay). One run that cannot send installs it (and spools its report there).
 */
function installedState(bundle: string, env: Record<string, string | undefined>): string {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-state-"));
  process.on("exit", () => fs.rmSync(state, { recursive: true, force: true }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-state-home-"));
  spawnSync(NODE, [...NODE_FLAGS, bundle, "--state-dir", state, "--home", home], {
    env: {
      ...REPORTER_ENV,
      ...env,
      STORAGE_DASHBOARD_URL: "http://127.0.0.1:9",
      STORAGE_ENROLLMENT_KEY: "bench",
      CODER_WORKSPACE_ID: "bench",
      CODER_WORKSPACE_NAME: "bench",
      CODER_WORKSPACE_OWNER_NAME: "bench",
    },
    stdio: "ignore",
  });
  fs.rmSync(home, { recursive: true });
  const bin = path.join(state, "bin");
  if (!fs.existsSync(bin) || !fs.readdirSync(bin).some((n) => n.startsWith("scan-")))
    console.log(`${bundle}: no native scanner installed (a build without one): its dry runs measure with find`);
  return state;
}

function sameAsDu(bundle: string, home: string, entries: number, state: string): boolean {
  const out = spawnSync(NODE, [...NODE_FLAGS, bundle, "--dry-run", "--state-dir", state, "--home", home], {
    env: REPORTER_ENV,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }).stdout;
  const report = JSON.parse(out) as { home?: { bytes: number; files: number; dirs: number } };
  const du = Number(spawnSync("du", ["-sxB1", home], { encoding: "utf8" }).stdout.split("\t")[0]);
  return report.home?.bytes === du && report.home.files + report.home.dirs === entries;
}

/**
 * Medians of wall time, and of CPU time (user + system, the scanners' processes included; /usr/bin/time counts
 * in 10 ms steps), in ms.
 */
type Times = { ms: number; cpu: number };

type Row = {
  shape: Shape;
  entries: number;
  du: Times;
  rep: Times;
  base: Times | null;
  rssMiB: number;
  others: string;
  same: boolean;
  /** Millions of instructions of one run: du, the reporter, the baseline (with --instructions). */
  counts: [number | null, number | null, number | null] | null;
};

const medians = (runs: Run[]): Times => ({
  ms: median(runs.map((r) => r.ms)),
  cpu: median(runs.map((r) => r.cpuMs ?? NaN)),
});

function measure(
  shape: Shape,
  home: string,
  entries: number,
  bundle: string,
  baseline: string | null,
  runs: number,
  count: boolean,
  states: { bundle: string; baseline: string | null },
): Row {
  const args = (state: string | null) => `--state-dir '${state}'`;
  // du at nice 19, as the reporter lowers itself to: load from elsewhere weighs on both alike
  const du = () => timed("nice", ["-n", "19", "du", "-sx", home]);
  du();
  runReporter(bundle, home, args(states.bundle));
  if (baseline) runReporter(baseline, home, args(states.baseline), BASELINE_ENV);
  const dus: Run[] = [];
  const reps: Run[] = [];
  const bases: Run[] = [];
  for (let i = 0; i < runs; i++) {
    dus.push(du()); // interleaved: load from elsewhere hits each alike
    reps.push(runReporter(bundle, home, args(states.bundle)));
    if (baseline) bases.push(runReporter(baseline, home, args(states.baseline), BASELINE_ENV));
  }
  const others = OTHERS.filter(([cmd]) => installed(cmd))
    .map(([cmd, args]) => {
      const t = median(Array.from({ length: runs }, () => timed("nice", ["-n", "19", cmd, ...args(home)]).ms));
      return `${cmd} ${ms(t)}`;
    })
    .join(", ");
  // the reporter as runReporter runs it, without the shell (valgrind would count the shell too)
  const reporterCount = (file: string, state: string | null, env: NodeJS.ProcessEnv) =>
    instructions(NODE, [...NODE_FLAGS, file, "--dry-run", "--state-dir", state!, "--home", home], env);
  const counts: Row["counts"] = count
    ? [
        instructions("du", ["-sx", home]),
        reporterCount(bundle, states.bundle, REPORTER_ENV),
        baseline ? reporterCount(baseline, states.baseline, { ...REPORTER_ENV, ...BASELINE_ENV }) : null,
      ]
    : null;
  return {
    shape,
    entries,
    counts,
    du: medians(dus),
    rep: medians(reps),
    base: baseline ? medians(bases) : null,
    rssMiB: Math.max(...reps.map((r) => r.rssKb ?? 0)) / 1024,
    others,
    same: sameAsDu(bundle, home, entries, states.bundle),
  };
}

/** The table, each ratio and peak recorded against its goal for the run's final table. */
function table(rows: Row[], baseline: boolean, floor: number): string {
  const head = [
    "shape",
    "entries",
    "du -sx",
    "reporter",
    "ratio",
    "CPU ratio",
    ...(baseline ? ["baseline", "ratio", "CPU ratio"] : []),
    "node -e 0 ÷ du",
    "peak RSS MiB",
    "= du",
    ...(rows.some((r) => r.counts) ? ["M instructions: du", "reporter", ...(baseline ? ["baseline"] : [])] : []),
  ];
  const lines = rows.map((r) => {
    recordMeasure(`reporter ${r.shape.key} / du -sx`, r.rep.ms / r.du.ms, { op: "<=", target: 1.25 });
    if (TIME) recordMeasure(`reporter ${r.shape.key} peak MiB`, r.rssMiB, { op: "<=", target: 100 });
    const against = (t: Times) => [
      ms(t.ms),
      (t.ms / r.du.ms).toFixed(2),
      r.du.cpu > 0 ? (t.cpu / r.du.cpu).toFixed(2) : "–",
    ];
    return [
      r.shape.label,
      r.entries.toLocaleString("en"),
      ms(r.du.ms),
      ...against(r.rep),
      ...(r.base === null ? [] : against(r.base)),
      (floor / r.du.ms).toFixed(2),
      TIME ? r.rssMiB.toFixed(1) : "unknown",
      r.same ? "yes" : "NO",
      ...(rows.some((x) => x.counts)
        ? (r.counts ?? [null, null, null]).slice(0, baseline ? 3 : 2).map((n) => (n === null ? "–" : n.toFixed(1)))
        : []),
    ];
  });
  return [head, head.map(() => "---"), ...lines].map((l) => `| ${l.join(" | ")} |`).join("\n");
}

export function runShapes(tmp: string, bundle: string, runs: number): void {
  const skip2m = process.argv.includes("--skip-2m") || process.env.BENCH_SKIP_2M === "1";
  const baseline = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : null;
  // Node's own start, in the environment the reporter runs in (NODE_EXTRA_CA_CERTS, which Node 20 reads at every
  // start, is not in it): no Node program ends sooner, so where it is over 1.25 x du the goal is out of its reach
  const floor = median(Array.from({ length: runs }, () => timed(NODE, [...NODE_FLAGS, "-e", "0"], REPORTER_ENV).ms));
  console.log(
    `reporter shapes: ${os.cpus().length} cores, node ${spawnSync(NODE, ["--version"], { encoding: "utf8" }).stdout.trim()} (${NODE}), ${runs} runs per figure (median), load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}; node -e 0 takes ${ms(floor)}`,
  );
  if (baseline)
    console.log(
      `baseline: ${baseline}, ${fs.statSync(baseline).size} bytes, environment ${process.env.BENCH_BASELINE_ENV ?? "the same"}`,
    );
  const count = process.argv.includes("--instructions");
  if (count && !VALGRIND) console.log("--instructions: valgrind is not installed here, not counted");
  const missing = OTHERS.map(([cmd]) => cmd).filter((cmd) => !installed(cmd));
  if (missing.length) console.log(`${missing.join(", ")}: not installed here, not measured`);
  const states = {
    bundle: installedState(bundle, {}),
    baseline: baseline ? installedState(baseline, BASELINE_ENV) : null,
  };
  const rows: Row[] = [];
  for (const shape of SHAPES) {
    if (shape.key === "2m" && skip2m) {
      console.log(`${shape.label}: skipped (--skip-2m)`);
      continue;
    }
    const { home, entries } = shapeHome(tmp, shape);
    const row = measure(shape, home, entries, bundle, baseline, runs, count && shape.key !== "2m", states);
    console.log(
      `${shape.label}: du -sx ${ms(row.du.ms)}, reporter ${ms(row.rep.ms)}${row.base === null ? "" : `, baseline ${ms(row.base.ms)}`}${row.others ? `, ${row.others}` : ""}; load average ${os.loadavg()[0].toFixed(2)}`,
    );
    rows.push(row);
  }
  console.log(`\n${table(rows, baseline !== null, floor)}`);
}
