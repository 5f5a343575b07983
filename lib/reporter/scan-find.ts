// The fast path: Node measures each root and its first level itself, then hands the second level to find
// processes (up to two, taking jobs from one queue) and parses their output into the aggregator.

import fs from "node:fs";
import os from "node:os";
import type { StartPoint } from "./find-parser";
import { runFindJob, type FindJob } from "./find-process";
import { childPath, relToHome } from "./paths";
import { listDir, lstatOrNull, nodeEntry, startRoot, type ScanContext } from "./scan-context";
import { errorCode, errorText } from "./scan-errors";

/** Mount points (absolute paths), or null when /proc/self/mountinfo cannot be read. */
function readMountPoints(): Set<string> | null {
  try {
    const text = fs.readFileSync("/proc/self/mountinfo", "utf8");
    const out = new Set<string>();
    for (const line of text.split("\n")) {
      const f = line.split(" ");
      if (f.length > 4) out.add(f[4].replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8))));
    }
    return out;
  } catch {
    return null;
  }
}

/** Splits start points into argument lists small enough for execve (and at most `maxCount` long). */
function batches(points: StartPoint[], maxCount = 4000, maxChars = 100_000): StartPoint[][] {
  const out: StartPoint[][] = [];
  let cur: StartPoint[] = [];
  let chars = 0;
  for (const p of points) {
    if (cur.length && (chars + p.abs.length + 1 > maxChars || cur.length >= maxCount)) {
      out.push(cur);
      cur = [];
      chars = 0;
    }
    cur.push(p);
    chars += p.abs.length + 1;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** A folder's entries with a hint of which are folders (no stat: the type readdir reports). */
function listDirTyped(ctx: ScanContext, i: number, abs: string): { names: string[]; dirs: boolean[] } | null {
  if (ctx.customReaddir) {
    const names = listDir(ctx, i, abs);
    return names && { names, dirs: names.map(() => true) };
  }
  try {
    const ents = fs.readdirSync(abs, { withFileTypes: true });
    return { names: ents.map((e) => e.name), dirs: ents.map((e) => e.isDirectory()) };
  } catch (err) {
    const code = errorCode(err);
    if (code !== "ENOENT") ctx.agg.unreadable(i, relToHome(ctx.home, abs), code, errorText(err));
    return null;
  }
}

/**
 * Measures each root and its first level, and returns where find takes over: the folders two levels below
 * each root (`deep`: find measures everything inside them), and the first-level folders that hold other
 * entries (`shallow`: a find that prints just those).
 */
function measureTopLevels(ctx: ScanContext): { deep: StartPoint[]; shallow: StartPoint[]; rootDev: number[] } {
  const mounts = readMountPoints();
  const rootDev: number[] = [];
  const deep: StartPoint[] = [];
  const shallow: StartPoint[] = [];
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    const dev = rootSt.dev;
    rootDev[i] = dev;
    const rootAbs = ctx.specs[i].abs;
    for (const name of listDir(ctx, i, rootAbs) ?? []) {
      const abs1 = childPath(rootAbs, name);
      const st1 = nodeEntry(ctx, i, dev, abs1, name);
      if (!st1) continue;
      const list = listDirTyped(ctx, i, abs1);
      if (!list) continue;
      let others = false;
      for (let k = 0; k < list.names.length; k++) {
        if (!list.dirs[k]) {
          others = true;
          continue;
        }
        const abs2 = abs1 + "/" + list.names[k];
        if (ctx.nested.size && ctx.nested.has(abs2)) continue;
        // A mount point as a start point would make find walk the other filesystem: leave it out (du -x
        // does). Entries of other filesystems that still show up are dropped by their device number.
        if (mounts) {
          if (mounts.has(abs2)) continue;
        } else {
          const s2 = lstatOrNull(abs2);
          if (s2 && !(s2 instanceof Error) && s2.dev !== dev) continue;
        }
        deep.push({ abs: abs2, root: i });
      }
      if (others) shallow.push({ abs: abs1, root: i });
    }
  }
  return { deep, shallow, rootDev };
}

export async function walkFind(ctx: ScanContext, bin: string, parallel: number): Promise<void> {
  const { deep, shallow, rootDev } = measureTopLevels(ctx);
  if (deep.length === 0 && shallow.length === 0) return;
  const prune = [...ctx.nested];
  // One queue of jobs shared by up to `parallel` find processes: each takes the next job when its find ends,
  // so a slow part of the tree does not leave the other core idle. The deep start points are dealt out in
  // turn to three jobs per process: neighbours are alike (the sessions of one project, ...), so the jobs come
  // out of similar size even when one first-level folder holds most of the tree. Starting a find costs the
  // main thread a few milliseconds, which is why there are not more.
  const slots = Math.max(1, Math.min(parallel, deep.length + (shallow.length ? 1 : 0)));
  const dealt: StartPoint[][] = Array.from({ length: Math.min(deep.length, slots * 3) }, () => []);
  deep.forEach((p, k) => dealt[k % dealt.length].push(p));
  const jobs: FindJob[] = [];
  for (const b of batches(shallow)) jobs.push({ points: b, shallow: true });
  for (const d of dealt) for (const b of batches(d)) jobs.push({ points: b, shallow: false });
  let next = 0;
  await Promise.all(
    Array.from({ length: slots }, async () => {
      while (next < jobs.length) {
        await runFindJob(ctx, bin, jobs[next++], prune, rootDev);
      }
    }),
  );
}

/** Two find processes where there are two cores: more would cost the main thread more than they bring. */
export function defaultParallelism(): number {
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return cores > 1 ? 2 : 1;
}
