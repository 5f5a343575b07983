// The whole-home walk against du: the built reporter (--dry-run, output to /dev/null) measures every root and
// the whole home in one walk; `du -sx` measures the home alone. Both at nice 19, interleaved, warm cache, on a
// home of about 2 million entries shaped like a developer's (agents' folders, package caches, node_modules,
// an IDE server, projects), with the reporter's peak memory.
//   node --import tsx scripts/bench/whole-home.ts
// BENCH_RUNS=n (default 5), BENCH_ENTRIES=n (default 2,000,000), BENCH_KEEP=/some/dir keeps the home there and
// reuses it on the next run.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatBytes } from "@/lib/format/bytes";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "../build-reporter.mjs";
import { recordMeasure } from "../lib/bench-results";
import { developerHome } from "./lib/home-shapes";
import { TIME, median, runReporter, timed } from "./lib/reporter-process";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 2_000_000);
const KEEP = process.env.BENCH_KEEP ? path.resolve(process.env.BENCH_KEEP) : null;
const tmp = KEEP ?? fs.mkdtempSync(path.join(os.tmpdir(), "whole-home-bench-"));
fs.mkdirSync(tmp, { recursive: true });

async function main() {
  const bundle = await buildReporter(path.join(tmp, "reporter.mjs"));
  const home = path.join(tmp, "home");
  const done = path.join(tmp, "complete");
  if (KEEP && fs.existsSync(done)) console.log(`whole home: reusing ${home}`);
  else {
    fs.rmSync(home, { recursive: true, force: true });
    const g0 = Date.now();
    const files = developerHome(home, ENTRIES);
    fs.writeFileSync(done, "");
    console.log(`whole home: ${files} files generated in ${((Date.now() - g0) / 1000).toFixed(0)} s`);
  }
  const du = () => timed("nice", ["-n", "19", "du", "-sx", home]);
  const rep = () => runReporter(bundle, home);
  du();
  rep();
  const dus: number[] = [];
  const reps: number[] = [];
  const cpu: [number[], number[]] = [[], []];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    const a = du(); // interleaved: load from elsewhere hits both alike
    dus.push(a.ms);
    const r = rep();
    reps.push(r.ms);
    if (a.cpuMs !== null && r.cpuMs !== null) cpu.forEach((c, k) => c.push(k ? r.cpuMs! : a.cpuMs!));
    rss = Math.max(rss, r.rssKb ?? 0);
  }
  const d = median(dus);
  const r = median(reps);
  console.log(
    `whole home: load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}, ${RUNS} runs (median)`,
  );
  console.log(
    `whole home warm: du -sx ${d.toFixed(0)} ms, reporter ${r.toFixed(0)} ms, ratio ${recordMeasure("whole-home walk / du -sx", r / d, { op: "<=", target: 1.25 })}`,
  );
  console.log(
    `whole home warm: du runs ${dus.map((x) => x.toFixed(0)).join(" ")} | reporter ${reps.map((x) => x.toFixed(0)).join(" ")}`,
  );
  if (cpu[0].length)
    console.log(
      `whole home warm CPU (user + sys, the scanner's processes included): du -sx ${median(cpu[0]).toFixed(0)} ms, reporter ${median(cpu[1]).toFixed(0)} ms`,
    );
  if (TIME)
    console.log(
      `whole home peak RSS of the reporter: ${formatBytes(rss * 1024)}, MiB ${recordMeasure("whole-home walk peak MiB", rss / 1024, { op: "<=", target: 100 })}`,
    );
  else console.log("whole home peak RSS: unknown (/usr/bin/time missing)");
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  });
