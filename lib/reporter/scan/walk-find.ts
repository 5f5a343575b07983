// The fast path: Node measures each root and its first level itself, then hands what lies below to processes
// of the native scanner or of find (one per core, up to two) and parses their output into the aggregator. The
// native scanner's processes take the first-level folders and share out their entries between them; find's
// are dealt the second-level folders, while Node measures the second level's other entries itself.

import fs from "node:fs";
import os from "node:os";
import { listDir, lstatOrNull, nodeEntry, startRoot, type ScanContext } from "./context";
import { errorCode, errorText } from "./errors";
import type { StartPoint } from "./find-parser";
import { runFindJob, type ScanProgram } from "./find-process";
import { childPath, relToHome } from "./paths";
import { TreeWalker, undecodable } from "./walk-node";

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
 * Measures each root and its first level, and returns where the program takes over (`deep`): with `shared`
 * (the native scanner) the first-level folders, whose entries its processes share out; else (find) the
 * folders two levels below each root, which find measures whole, the second level's other entries being the
 * walker's. The walker is given the entries of the levels Node lists whose names are not valid UTF-8 (see Walk).
 */
function measureTopLevels(
  ctx: ScanContext,
  walker: TreeWalker,
  shared: boolean,
): { deep: StartPoint[]; rootDev: number[] } {
  const mounts = shared ? null : readMountPoints(); // find's start points only
  const rootDev: number[] = [];
  const deep: StartPoint[] = [];
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    const dev = rootSt.dev;
    rootDev[i] = dev;
    const rootAbs = ctx.specs[i].abs;
    const names1 = listDir(ctx, i, rootAbs) ?? [];
    if (names1.some(undecodable)) walker.add(i, dev, "", "", "undecodable");
    for (const name of names1) {
      if (undecodable(name)) continue;
      const abs1 = childPath(rootAbs, name);
      const st1 = nodeEntry(ctx, i, dev, abs1, name);
      if (!st1) continue;
      if (shared) {
        deep.push({ abs: abs1, root: i, shared: true });
        continue;
      }
      const list = listDirTyped(ctx, i, abs1);
      if (!list) continue;
      if (list.names.some(undecodable)) walker.add(i, dev, name, name, "undecodable");
      let others = false;
      for (let k = 0; k < list.names.length; k++) {
        if (undecodable(list.names[k])) continue;
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
      // the other entries of the second level (files, links): the main thread's
      if (others) walker.add(i, dev, name, name, "files");
    }
  }
  return { deep, rootDev };
}

/** Entries the main thread measures between two looks at find's output (about 2 ms: find's pipe never fills). */
const SLICE = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function walkFind(ctx: ScanContext, program: ScanProgram, parallel: number): Promise<void> {
  const walker = new TreeWalker(ctx);
  const { deep, rootDev } = measureTopLevels(ctx, walker, program.kind === "native");
  const prune = [...ctx.nested];
  // One process per core. Each costs the main thread a fork and a wait for its exec (long on a loaded
  // machine), which is why there is one per core and not more. The native scanner's processes are all given
  // every first-level folder and each takes its share of their entries; find's are dealt the second-level
  // folders in turn: neighbours are alike (the sessions of one project, ...), so the shares come out of
  // similar size even when one first-level folder holds most of the tree.
  const native = program.kind === "native";
  const slots = Math.max(1, native ? parallel : Math.min(parallel, deep.length));
  const dealt: StartPoint[][] = Array.from({ length: deep.length ? slots : 0 }, () => []);
  deep.forEach((p, k) => (native ? dealt.forEach((d) => d.push(p)) : dealt[k % slots].push(p)));
  let failed: unknown = null;
  const finds = dealt.map(async (points, k) => {
    const share = { k, n: slots };
    try {
      for (const b of batches(points))
        if (failed === null) await runFindJob(ctx, program, b, prune, rootDev, native ? share : undefined);
    } catch (err) {
      failed ??= err;
    }
  });
  // Meanwhile the main thread measures what the walker was given (find: the second level's files and links)
  // itself, a slice at a time between which it parses what the processes printed.
  while (!walker.done && failed === null) {
    walker.step(SLICE);
    await nextTurn();
  }
  await Promise.all(finds);
  if (failed !== null) throw failed;
}

/** Two find processes where there are two cores: more would cost the main thread more than they bring. */
export function defaultParallelism(): number {
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return cores > 1 ? 2 : 1;
}
