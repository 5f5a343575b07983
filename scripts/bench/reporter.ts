// Reporter speed against du: whole-process time of the built reporter (--dry-run, output to /dev/null) and of
// `du -sb` over the same tree, in the same run, warm and cold cache, with peak memory. (A dry run writes nothing in
// its state folder: the native scanner runs from a temporary copy written at each run, a little dearer than a real run.)
//   node --import tsx scripts/bench/reporter.ts
// Trees are generated under /tmp and removed afterwards. Prints plain lines of numbers and ratios.
// BENCH_RUNS=n (default 5), BENCH_TREES=plain|heavy (default both), BENCH_COLD=0 skips the cold-cache figures,
// BENCH_KEEP=/some/dir keeps the generated trees there and reuses them on the next run.
// --shapes: the homes of five shapes against du -sx instead, as one table (scripts/bench/lib/reporter-shapes.ts).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatBytes } from "@/lib/format/bytes";
import { NODE_FLAGS, REPORTER_ENV, TIME, median, runReporter, timed } from "./lib/reporter-process";
import { runShapes } from "./lib/reporter-shapes";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "../build-reporter.mjs";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KEEP = process.env.BENCH_KEEP ? path.resolve(process.env.BENCH_KEEP) : null;
const tmp = KEEP ?? fs.mkdtempSync(path.join(os.tmpdir(), "reporter-bench-"));
if (KEEP) fs.mkdirSync(KEEP, { recursive: true });

function fileSizes(i: number): Buffer {
  return Buffer.alloc((i * 37) % 3000, 120);
}

/** 200,000 files in 2,021 folders (20 × 100 folders of 100 files), like MEASUREMENTS.md. */
function plainTree(root: string) {
  let n = 0;
  for (let a = 0; a < 20; a++) {
    for (let b = 0; b < 100; b++) {
      const dir = path.join(root, `d${a}`, `e${b}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 100; f++) fs.writeFileSync(path.join(dir, `f${f}.txt`), fileSizes(n++));
    }
  }
  return n + 20 * 100 + 20 + 1;
}

const hex = (n: number, len: number) => n.toString(16).padStart(len, "0");
const uuid = (n: number) => `${hex(n, 8)}-0000-4000-8000-${hex(n * 7919, 12)}`;

/** A heavy ~/.claude: 150 projects × 80 sessions (jsonl + folder of 3 files), debug/, file-history/, todos/. */
function claudeTree(root: string) {
  let n = 0;
  for (let p = 0; p < 150; p++) {
    const proj = path.join(root, "projects", `-home-coder-project-${p}`);
    fs.mkdirSync(proj, { recursive: true });
    for (let s = 0; s < 80; s++) {
      const id = uuid(p * 1000 + s);
      fs.writeFileSync(path.join(proj, `${id}.jsonl`), fileSizes(n++ * 13));
      fs.mkdirSync(path.join(proj, id, "subagents"), { recursive: true });
      fs.mkdirSync(path.join(proj, id, "tool-results"));
      fs.writeFileSync(path.join(proj, id, "subagents", "agent-1.jsonl"), fileSizes(n++));
      fs.writeFileSync(path.join(proj, id, "tool-results", "r1.txt"), fileSizes(n++));
      fs.writeFileSync(path.join(proj, id, "tool-results", "r2.txt"), fileSizes(n++));
      n += 3;
    }
  }
  fs.mkdirSync(path.join(root, "debug"));
  for (let i = 0; i < 20_000; i++) fs.writeFileSync(path.join(root, "debug", `${uuid(i)}.txt`), fileSizes(n++));
  for (let s = 0; s < 1000; s++) {
    const dir = path.join(root, "file-history", uuid(s));
    fs.mkdirSync(dir, { recursive: true });
    for (let v = 0; v < 30; v++) fs.writeFileSync(path.join(dir, `v${v}`), fileSizes(n++));
    n++;
  }
  fs.mkdirSync(path.join(root, "todos"));
  for (let i = 0; i < 5000; i++) fs.writeFileSync(path.join(root, "todos", `${uuid(i)}-agent.json`), "[]");
  fs.writeFileSync(path.join(root, "history.jsonl"), fileSizes(999));
  return n + 5000 + 4;
}

function dropCaches(): string | null {
  try {
    spawnSync("sync");
    fs.writeFileSync("/proc/sys/vm/drop_caches", "3");
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? String(err);
  }
}

async function main() {
  const bundle = await buildReporter(path.join(tmp, "reporter.mjs"));
  if (process.argv.includes("--shapes")) return runShapes(path.join(tmp, "shapes"), bundle, RUNS);
  console.log(
    `reporter bench: ${os.cpus().length} cores, node ${process.version} ${NODE_FLAGS.join(" ")} (as the module runs it), ${RUNS} runs per figure (median), bundle ${fs.statSync(bundle).size} bytes`,
  );
  if (process.env.NODE_EXTRA_CA_CERTS && !REPORTER_ENV.NODE_EXTRA_CA_CERTS)
    console.log(
      "NODE_EXTRA_CA_CERTS is set here: handed to the reporter in its own variable, as the module's script does",
    );
  const trees: [string, string, (root: string) => number][] = [
    ["plain 200k", ".codex", plainTree],
    ["heavy ~/.claude", ".claude", claudeTree],
  ];
  const only = process.env.BENCH_TREES;
  for (const [label, folder, make] of trees) {
    if (only && !label.includes(only)) continue;
    const home = path.join(tmp, label.replace(/[^a-z0-9]/gi, "_"), "home");
    const root = path.join(home, folder);
    const done = path.join(path.dirname(home), "complete");
    if (KEEP && fs.existsSync(done)) console.log(`${label}: reusing ${root}`);
    else {
      fs.rmSync(path.dirname(home), { recursive: true, force: true });
      fs.mkdirSync(root, { recursive: true });
      const g0 = Date.now();
      const entries = make(root);
      fs.writeFileSync(done, "");
      console.log(`${label}: ${entries} entries generated in ${((Date.now() - g0) / 1000).toFixed(1)} s`);
    }
    console.log(
      `${label}: load average before the runs ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
    // the reporter lowers its own priority to nice 19: du runs at the same priority so that load from other
    // processes on the machine weighs on both alike (du at normal priority is printed too)
    const du = () => timed("nice", ["-n", "19", "du", "-sb", root]);
    const duNormal = () => timed("du", ["-sb", root]);
    const rep = (scanner = "auto") => runReporter(bundle, home, `--scanner ${scanner}`);
    // warm up the cache and the binaries
    du();
    rep();
    const dus: number[] = [];
    const reps: number[] = [];
    const duCpu: number[] = [];
    const repCpu: number[] = [];
    let rss = 0;
    for (let i = 0; i < RUNS; i++) {
      // interleaved, so that load from elsewhere hits both alike
      const a = du();
      dus.push(a.ms);
      if (a.cpuMs !== null) duCpu.push(a.cpuMs);
      const r = rep();
      reps.push(r.ms);
      if (r.cpuMs !== null) repCpu.push(r.cpuMs);
      rss = Math.max(rss, r.rssKb ?? 0);
    }
    const normal = median(Array.from({ length: 3 }, () => duNormal().ms));
    const nodeRuns: number[] = [];
    const findRuns: number[] = [];
    for (let i = 0; i < Math.max(2, Math.floor(RUNS / 2)); i++) {
      nodeRuns.push(rep("node").ms);
      findRuns.push(rep("find").ms);
    }
    const d = median(dus);
    const r = median(reps);
    const nr = median(nodeRuns);
    const fr = median(findRuns);
    console.log(
      `${label} warm: du -sb ${d.toFixed(0)} ms, reporter ${r.toFixed(0)} ms, ratio ${(r / d).toFixed(2)} (both at nice 19)`,
    );
    console.log(
      `${label} warm: du -sb at normal priority ${normal.toFixed(0)} ms, reporter/that ${(r / normal).toFixed(2)}; load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(`${label} warm: reporter --scanner find (fallback) ${fr.toFixed(0)} ms, ratio ${(fr / d).toFixed(2)}`);
    console.log(`${label} warm: reporter --scanner node (fallback) ${nr.toFixed(0)} ms, ratio ${(nr / d).toFixed(2)}`);
    console.log(
      `${label} warm: du runs ${dus.map((x) => x.toFixed(0)).join(" ")} | reporter runs ${reps.map((x) => x.toFixed(0)).join(" ")}`,
    );
    if (repCpu.length)
      console.log(
        `${label} warm CPU (user + sys, its scanner processes included): du -sb ${median(duCpu).toFixed(0)} ms, reporter ${median(repCpu).toFixed(0)} ms, ratio ${(median(repCpu) / median(duCpu)).toFixed(2)}; runs: du ${duCpu.map((x) => x.toFixed(0)).join(" ")} | reporter ${repCpu.map((x) => x.toFixed(0)).join(" ")}`,
      );
    console.log(
      `${label} peak RSS of the reporter: ${TIME ? formatBytes(rss * 1024) : "unknown (/usr/bin/time missing)"}`,
    );
    const cannot = process.env.BENCH_COLD === "0" ? "skipped (BENCH_COLD=0)" : dropCaches();
    if (cannot) console.log(`${label} cold: could not drop caches (writing /proc/sys/vm/drop_caches: ${cannot})`);
    else {
      const cd: number[] = [];
      const cr: number[] = [];
      for (let i = 0; i < 2; i++) {
        dropCaches();
        cd.push(du().ms);
        dropCaches();
        cr.push(rep().ms);
      }
      console.log(
        `${label} cold: du -sb ${median(cd).toFixed(0)} ms, reporter ${median(cr).toFixed(0)} ms, ratio ${(median(cr) / median(cd)).toFixed(2)}`,
      );
    }
    if (!KEEP) fs.rmSync(path.dirname(home), { recursive: true, force: true });
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    if (KEEP) fs.rmSync(path.join(tmp, "reporter.mjs"), { force: true });
    else fs.rmSync(tmp, { recursive: true, force: true });
  });
