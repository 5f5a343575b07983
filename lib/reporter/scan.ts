// Measures storage roots. Two scanners feed the same Aggregator and give identical numbers:
//
// - "find" (fast path): Node lists each root's first two levels itself, then hands the second-level entries
//   to GNU `find -xdev -printf` split over up to two processes (the stat calls run in find, on both cores,
//   while Node parses the NUL-separated stream).
// - "node" (fallback, e.g. busybox without -printf): an iterative readdirSync + lstatSync walk.
//
// Both never follow symbolic links, never cross into another filesystem (a mount point inside a root is
// left out entirely, as `du -x` does), and skip roots nested inside the root being scanned (they are
// measured as their own root).

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Aggregator, ErrorLog, type RootSpec } from "./aggregate";
import type { StorageRoot } from "@/lib/report/schema";

export type ScannerMode = "auto" | "find" | "node";

export type ScanOptions = {
  mode?: ScannerMode;
  /** Home folder, for error paths. */
  home: string;
  /** How many find processes to run at once (default: 2, or 1 on a single core). */
  parallel?: number;
  /** The find binary (default "find"). */
  findBin?: string;
  /** Seam for tests: called instead of fs.readdirSync. */
  readdir?: (abs: string) => string[];
};

export type ScanResult = { roots: StorageRoot[]; scanner: "find" | "node"; errors: ErrorLog };

/** Roots that lie strictly inside another root: measured on their own and skipped by the outer root. */
export function nestedRootPaths(specs: readonly RootSpec[]): Set<string> {
  const out = new Set<string>();
  for (const a of specs) for (const b of specs) if (a !== b && isInside(a.abs, b.abs)) out.add(a.abs);
  return out;
}

export function isInside(child: string, parent: string): boolean {
  return child.length > parent.length && child.startsWith(parent) && child.charCodeAt(parent.length) === 47;
}

const mtimeSec = (st: fs.Stats) => Math.floor(st.mtimeMs / 1000);

function relToHome(home: string, abs: string): string {
  return isInside(abs, home) ? abs.slice(home.length + 1) : abs;
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException)?.code ?? "EIO";
}

function errText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const code = e?.code;
  const msgs: Record<string, string> = {
    EACCES: "Permission denied",
    EPERM: "Operation not permitted",
    ELOOP: "Too many levels of symbolic links",
    ENOTDIR: "Not a directory",
  };
  return (code && msgs[code]) || String(e?.message ?? err).replace(/^[A-Z]+: /, "").split(",")[0];
}

/** "dev:ino" for a hard-linked file, exact even for inode numbers beyond 2^53. */
function inodeKey(abs: string, st: fs.Stats): string {
  try {
    const big = fs.lstatSync(abs, { bigint: true });
    return `${big.dev}:${big.ino}`;
  } catch {
    return `${st.dev}:${st.ino}`;
  }
}

function lstatOrNull(abs: string): fs.Stats | null | Error {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch (err) {
    return err as Error;
  }
}

/** Mount points (absolute paths), or null when /proc/self/mountinfo cannot be read. */
export function readMountPoints(): Set<string> | null {
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

type Ctx = {
  agg: Aggregator;
  specs: readonly RootSpec[];
  home: string;
  nested: Set<string>;
  readdir: (abs: string) => string[];
};

/** Accounts a root's own entry. Returns its lstat, or null when it is absent or unreadable. */
function startRoot(ctx: Ctx, i: number): fs.Stats | null {
  const spec = ctx.specs[i];
  const st = lstatOrNull(spec.abs);
  if (st === null) return null;
  if (st instanceof Error) {
    if (errCode(st) !== "ENOENT" && errCode(st) !== "ENOTDIR") ctx.agg.errors.add(spec.rel, errCode(st), errText(st));
    return null;
  }
  ctx.agg.present(i);
  ctx.agg.entry(i, "", st.isDirectory(), st.blocks, st.size, mtimeSec(st), st.nlink, st.nlink > 1 && !st.isDirectory() ? inodeKey(spec.abs, st) : null);
  return st;
}

function listDir(ctx: Ctx, i: number, abs: string): string[] | null {
  try {
    return ctx.readdir(abs);
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT") return null;
    ctx.agg.unreadable(i, relToHome(ctx.home, abs), code, errText(err));
    return null;
  }
}

const join = (dir: string, name: string) => (dir.endsWith("/") ? dir + name : dir + "/" + name);

/** Accounts one entry found by Node (lstat). Returns its stats when it is a folder to go into. */
function nodeEntry(ctx: Ctx, i: number, dev: number, abs: string, rel: string): fs.Stats | null {
  if (ctx.nested.size && ctx.nested.has(abs)) return null;
  const st = lstatOrNull(abs);
  if (st === null) return null; // vanished since it was listed
  if (st instanceof Error) {
    ctx.agg.unreadable(i, relToHome(ctx.home, abs), errCode(st), errText(st));
    return null;
  }
  if (st.dev !== dev) return null; // a mount point: du -x leaves it out entirely
  const isDir = st.isDirectory();
  ctx.agg.entry(i, rel, isDir, st.blocks, st.size, mtimeSec(st), st.nlink, st.nlink > 1 && !isDir ? inodeKey(abs, st) : null);
  return isDir ? st : null;
}

// ---------------------------------------------------------------------------------------------------------
// Node walker

function walkNode(ctx: Ctx) {
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    const dev = rootSt.dev;
    const rootAbs = ctx.specs[i].abs;
    // Depth-first with an explicit stack of (folder, its names, next index): memory grows with depth × width
    // of one path, never with the tree's size.
    const names0 = listDir(ctx, i, rootAbs);
    if (!names0) continue;
    const stAbs: string[] = [rootAbs];
    const stRel: string[] = [""];
    const stNames: string[][] = [names0];
    const stIdx: number[] = [0];
    while (stAbs.length > 0) {
      const top = stAbs.length - 1;
      const names = stNames[top];
      if (stIdx[top] >= names.length) {
        stAbs.pop();
        stRel.pop();
        stNames.pop();
        stIdx.pop();
        continue;
      }
      const name = names[stIdx[top]++];
      const abs = join(stAbs[top], name);
      const rel = stRel[top] === "" ? name : stRel[top] + "/" + name;
      const st = nodeEntry(ctx, i, dev, abs, rel);
      if (!st) continue;
      const children = listDir(ctx, i, abs);
      if (!children || children.length === 0) continue;
      stAbs.push(abs);
      stRel.push(rel);
      stNames.push(children);
      stIdx.push(0);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// find fast path

const FMT_SHORT = "%D %b %s %T@ %y %p\\0";
const FMT_LONG = "H%D %i %n %b %s %T@ %y %p\\0";

export type StartPoint = { abs: string; root: number };

class FindUnusable extends Error {}

/** Escapes a path for find's -path (fnmatch without FNM_NOESCAPE). */
function escapeGlob(p: string): string {
  return p.replace(/[\\*?[\]]/g, "\\$&");
}

function findArgs(points: readonly StartPoint[], prune: readonly string[]): string[] {
  const args = points.map((p) => p.abs);
  args.push("-xdev");
  if (prune.length) {
    args.push("(");
    prune.forEach((p, k) => {
      if (k) args.push("-o");
      args.push("-path", escapeGlob(p));
    });
    args.push(")", "-prune", "-o");
  }
  args.push("(", "-type", "d", "-o", "-links", "1", ")", "-printf", FMT_SHORT, "-o", "-printf", FMT_LONG);
  return args;
}

/** Splits a slot's start points into argument lists small enough for execve. */
function batches(points: StartPoint[], maxChars = 100_000, maxCount = 4000): StartPoint[][] {
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

/** Parses find's error lines ("find: '<path>': <message>"). */
export function parseFindError(line: string): { path: string; message: string } | null {
  const m = /^find: ['‘](.*)['’]: ([^:]+)$/.exec(line);
  if (!m) return null;
  return { path: m[1].replace(/\\(.)/g, "$1"), message: m[2] };
}

type Utf8Slicer = { utf8Slice?: (start: number, end: number) => string };
/** Buffer#utf8Slice skips toString's argument checks (a third of the parse time); toString where absent. */
const utf8 = (buf: Buffer, start: number, end: number): string =>
  (buf as unknown as Utf8Slicer).utf8Slice ? (buf as unknown as Required<Utf8Slicer>).utf8Slice(start, end) : buf.toString("utf8", start, end);

/**
 * Parses find's output, records of FMT_SHORT or FMT_LONG separated by NUL, chunk by chunk, into the
 * aggregator. `points` are the start points in the order given to find (each entry belongs to the latest
 * start point that is a prefix of its path).
 */
export class FindParser {
  records = 0;
  private rest: Buffer | null = null;
  private sp = 0;
  constructor(
    private readonly agg: Aggregator,
    private readonly specs: readonly RootSpec[],
    private readonly points: readonly StartPoint[],
    private readonly rootDev: readonly number[],
  ) {}

  push(chunk: Buffer) {
    const buf: Buffer = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let pos = 0;
    const n = buf.length;
    const { agg, specs, points, rootDev } = this;
    for (;;) {
      const end = buf.indexOf(0, pos);
      if (end < 0) break;
      let i = pos;
      const long = buf[i] === 72; // 'H'
      if (long) i++;
      let c = 0;
      let dev = 0;
      while ((c = buf[i++]) !== 32) dev = dev * 10 + c - 48;
      let ino = "";
      let nlink = 1;
      if (long) {
        const s = i;
        while (buf[i] !== 32) i++;
        ino = buf.toString("latin1", s, i);
        i++;
        nlink = 0;
        while ((c = buf[i++]) !== 32) nlink = nlink * 10 + c - 48;
      }
      let blocks = 0;
      while ((c = buf[i++]) !== 32) blocks = blocks * 10 + c - 48;
      let size = 0;
      while ((c = buf[i++]) !== 32) size = size * 10 + c - 48;
      let neg = false;
      if (buf[i] === 45) {
        neg = true;
        i++;
      }
      let sec = 0;
      let frac = false;
      while ((c = buf[i++]) !== 32) {
        if (c === 46) {
          while (buf[i] !== 32) {
            if (buf[i] !== 48) frac = true;
            i++;
          }
        } else sec = sec * 10 + c - 48;
      }
      if (neg) sec = frac ? -sec - 1 : -sec;
      const type = buf[i];
      i += 2;
      const p = utf8(buf, i, end);
      pos = end + 1;
      this.records++;
      // which start point (and so which root) this entry belongs to
      let cur = points[this.sp];
      while (cur && !(p === cur.abs || (p.startsWith(cur.abs) && p.charCodeAt(cur.abs.length) === 47))) cur = points[++this.sp];
      if (!cur) {
        this.sp = 0;
        continue;
      }
      const r = cur.root;
      if (dev !== rootDev[r]) continue; // a mount point inside the tree: left out, like du -x
      agg.entry(r, p.slice(specs[r].abs.length + 1), type === 100, blocks, size, sec, nlink, long ? `${dev}:${ino}` : null);
    }
    this.rest = pos < n ? Buffer.from(buf.subarray(pos)) : null;
  }
}

function runFind(
  ctx: Ctx,
  bin: string,
  points: StartPoint[],
  prune: string[],
  rootDev: number[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, findArgs(points, prune), {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C", POSIXLY_CORRECT: undefined },
    });
    const parser = new FindParser(ctx.agg, ctx.specs, points, rootDev);
    child.stdout.on("data", (chunk: Buffer) => parser.push(chunk));
    let errText = "";
    const fatal: string[] = [];
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (s: string) => {
      errText += s;
      let nl: number;
      while ((nl = errText.indexOf("\n")) >= 0) {
        const line = errText.slice(0, nl);
        errText = errText.slice(nl + 1);
        const e = parseFindError(line);
        if (!e) {
          if (line.trim()) fatal.push(line);
          continue;
        }
        if (/No such file or directory/.test(e.message)) continue; // vanished during the scan
        const root = rootOf(ctx.specs, e.path);
        if (root < 0) ctx.agg.errors.add(relToHome(ctx.home, e.path), "EFIND", e.message);
        else ctx.agg.unreadable(root, relToHome(ctx.home, e.path), codeOf(e.message), e.message);
      }
    });
    child.on("error", (err) => reject(new FindUnusable(`cannot run ${bin}: ${err.message}`)));
    child.on("close", (code, signal) => {
      if (signal) return reject(new FindUnusable(`${bin} was killed by ${signal}`));
      if (fatal.length && parser.records === 0) return reject(new FindUnusable(fatal.join("; ")));
      if (fatal.length) for (const f of fatal) ctx.agg.errors.add("", "EFIND", f);
      if (code !== 0 && code !== 1) return reject(new FindUnusable(`${bin} exited with ${code}`));
      resolve();
    });
  });
}

function codeOf(message: string): string {
  if (/Permission denied/.test(message)) return "EACCES";
  if (/not permitted/.test(message)) return "EPERM";
  if (/symbolic links/.test(message)) return "ELOOP";
  return "EIO";
}

function rootOf(specs: readonly RootSpec[], abs: string): number {
  let best = -1;
  for (let i = 0; i < specs.length; i++) {
    const a = specs[i].abs;
    if ((abs === a || isInside(abs, a)) && (best < 0 || a.length > specs[best].abs.length)) best = i;
  }
  return best;
}

async function walkFind(ctx: Ctx, bin: string, parallel: number): Promise<void> {
  const mounts = readMountPoints();
  const rootDev: number[] = [];
  const points: StartPoint[] = [];
  for (let i = 0; i < ctx.specs.length; i++) {
    const rootSt = startRoot(ctx, i);
    if (!rootSt?.isDirectory()) continue;
    const dev = rootSt.dev;
    rootDev[i] = dev;
    const rootAbs = ctx.specs[i].abs;
    for (const name of listDir(ctx, i, rootAbs) ?? []) {
      const abs1 = join(rootAbs, name);
      const st1 = nodeEntry(ctx, i, dev, abs1, name);
      if (!st1) continue;
      for (const name2 of listDir(ctx, i, abs1) ?? []) {
        const abs2 = abs1 + "/" + name2;
        if (ctx.nested.size && ctx.nested.has(abs2)) continue;
        // A mount point as a start point would make find walk the other filesystem: leave it out (du -x
        // does). Entries of other filesystems that still show up are dropped by their device number.
        if (mounts) {
          if (mounts.has(abs2)) continue;
        } else {
          const s2 = lstatOrNull(abs2);
          if (s2 && !(s2 instanceof Error) && s2.dev !== dev) continue;
        }
        points.push({ abs: abs2, root: i });
      }
    }
  }
  if (points.length === 0) return;
  const prune = [...ctx.nested];
  const slots = Math.max(1, Math.min(parallel, points.length));
  const perSlot: StartPoint[][] = Array.from({ length: slots }, () => []);
  points.forEach((p, k) => perSlot[k % slots].push(p));
  await Promise.all(
    perSlot.map(async (list) => {
      for (const batch of batches(list)) await runFind(ctx, bin, batch, prune, rootDev);
    }),
  );
}

export function defaultParallelism(): number {
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return cores > 1 ? 2 : 1;
}

/** Scans the roots (in order: a hard-linked file counts in the first root that holds it). */
export async function scanRoots(specs: readonly RootSpec[], nowSec: number, opts: ScanOptions): Promise<ScanResult> {
  const home = path.resolve(opts.home);
  const nested = nestedRootPaths(specs);
  const readdir = opts.readdir ?? ((abs: string) => fs.readdirSync(abs));
  const mode = opts.mode ?? "auto";
  if (mode !== "node") {
    const errors = new ErrorLog();
    const ctx: Ctx = { agg: new Aggregator(specs, nowSec, errors), specs, home, nested, readdir };
    try {
      await walkFind(ctx, opts.findBin ?? "find", opts.parallel ?? defaultParallelism());
      return { roots: ctx.agg.finish(), scanner: "find", errors };
    } catch (err) {
      if (!(err instanceof FindUnusable) || mode === "find") throw err;
      // busybox or no find: measure everything again with the Node walker
    }
  }
  const errors = new ErrorLog();
  const ctx: Ctx = { agg: new Aggregator(specs, nowSec, errors), specs, home, nested, readdir };
  walkNode(ctx);
  return { roots: ctx.agg.finish(), scanner: "node", errors };
}
