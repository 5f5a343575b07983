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
import { Aggregator } from "./aggregate";
import { childPath, isInside, relToHome } from "./paths";
import type { RootSpec } from "./roots";
import { ErrorLog } from "./scan-errors";
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

const mtimeSec = (st: fs.Stats) => Math.floor(st.mtimeMs / 1000);

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
  /** Whether `readdir` is a test's seam (then folder types are unknown). */
  customReaddir: boolean;
  /** Whether to run find under stdbuf (turned off when stdbuf fails). */
  stdbuf: boolean;
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
      const abs = childPath(stAbs[top], name);
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

/**
 * A start point of find: `abs` as given to find (absolute, or relative to the job's working folder), its root,
 * and optionally how many bytes of `abs` name the root (default: the root's absolute path).
 */
export type StartPoint = { abs: string; root: number; rootLen?: number };

class FindUnusable extends Error {}
/** stdbuf (coreutils) could not run find: run find directly. */
class StdbufUnusable extends Error {}

/**
 * find writes to a pipe in 4 KB blocks (stdio's buffer): thousands of wake-ups and reads for Node. Run under
 * `stdbuf -o 256K` where coreutils has it, Node receives 64 KB chunks and spends a third of the CPU time on
 * the stream (measured: 140 → 40 ms for 15 MB).
 */
const STDBUF = ["stdbuf", "-o", "262144"];

/** Escapes a path for find's -path (fnmatch without FNM_NOESCAPE). */
function escapeGlob(p: string): string {
  return p.replace(/[\\*?[\]]/g, "\\$&");
}

/**
 * find's arguments. A deep job measures its start points and everything below them; a shallow job prints only
 * the non-folder entries directly inside its start points (the folders among them are deep start points).
 */
function findArgs(points: readonly StartPoint[], prune: readonly string[], shallow: boolean): string[] {
  const args = points.map((p) => p.abs);
  if (shallow) args.push("-mindepth", "1", "-maxdepth", "1");
  args.push("-xdev");
  if (prune.length) {
    args.push("(");
    prune.forEach((p, k) => {
      if (k) args.push("-o");
      args.push("-path", escapeGlob(p));
    });
    args.push(")", "-prune", "-o");
  }
  if (shallow) args.push("-type", "d", "-o", "-links", "1", "-printf", FMT_SHORT, "-o", "-printf", FMT_LONG);
  else args.push("(", "-type", "d", "-o", "-links", "1", ")", "-printf", FMT_SHORT, "-o", "-printf", FMT_LONG);
  return args;
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

/** Parses find's error lines ("find: '<path>': <message>"). */
export function parseFindError(line: string): { path: string; message: string } | null {
  const m = /^find: ['‘](.*)['’]: ([^:]+)$/.exec(line);
  if (!m) return null;
  return { path: m[1].replace(/\\(.)/g, "$1"), message: m[2] };
}

type Utf8Slicer = { utf8Slice?: (start: number, end: number) => string };
declare module "node:buffer" {
  interface Buffer {
    latin1Slice(start: number, end: number): string;
  }
}
/** Buffer#utf8Slice skips toString's argument checks (a third of the parse time); toString where absent. */
const utf8 = (buf: Buffer, start: number, end: number): string =>
  (buf as unknown as Utf8Slicer).utf8Slice ? (buf as unknown as Required<Utf8Slicer>).utf8Slice(start, end) : buf.toString("utf8", start, end);

/**
 * Parses find's output, records of FMT_SHORT or FMT_LONG separated by NUL, chunk by chunk, into the
 * aggregator. `points` are the start points in the order given to find (each entry belongs to the latest
 * start point that is a prefix of its path).
 *
 * The hot loop reads numbers straight from the bytes and makes one string per entry (its path relative to
 * the root); a record cut by a chunk's end is carried over in one reused buffer.
 */
export class FindParser {
  records = 0;
  private carry: Buffer = Buffer.allocUnsafeSlow(4096);
  private carryLen = 0;
  private sp = 0;
  /** The current start point's path as bytes, and where its root's path ends in it. */
  private spBytes: Buffer | null = null;
  private spRootLen = 0;
  private readonly rootBytes: number[];
  /** The previous entry's folder: as find printed it (bytes), its root, and the string handed to the aggregator. */
  private parentBytes: Buffer = Buffer.allocUnsafeSlow(1024);
  private parentLen = -1;
  private parentStr = "";
  private parentRoot = -1;
  constructor(
    private readonly agg: Aggregator,
    specs: readonly RootSpec[],
    private readonly points: readonly StartPoint[],
    private readonly rootDev: readonly number[],
  ) {
    this.rootBytes = specs.map((s) => Buffer.byteLength(s.abs));
    this.setPoint(0);
  }

  private setPoint(k: number) {
    this.sp = k;
    const p = this.points[k];
    this.spBytes = p ? Buffer.from(p.abs) : null;
    this.spRootLen = p ? (p.rootLen ?? this.rootBytes[p.root]) : 0;
  }

  push(chunk: Buffer) {
    let pos = 0;
    if (this.carryLen > 0) {
      // complete the record cut at the end of the previous chunk
      const end = chunk.indexOf(0);
      const take = end < 0 ? chunk.length : end + 1;
      if (this.carryLen + take > this.carry.length) {
        const bigger = Buffer.allocUnsafeSlow(Math.max(this.carry.length * 2, this.carryLen + take));
        this.carry.copy(bigger, 0, 0, this.carryLen);
        this.carry = bigger;
      }
      chunk.copy(this.carry, this.carryLen, 0, take);
      this.carryLen += take;
      if (end < 0) return;
      this.record(this.carry, 0, this.carryLen - 1);
      this.carryLen = 0;
      pos = take;
    }
    pos = this.parse(chunk, pos);
    const left = chunk.length - pos;
    if (left > 0) {
      if (left > this.carry.length) this.carry = Buffer.allocUnsafeSlow(left * 2);
      chunk.copy(this.carry, 0, pos);
      this.carryLen = left;
    }
  }

  /** Parses the complete records in buf from pos; returns where the incomplete rest starts. */
  private parse(buf: Buffer, pos: number): number {
    for (;;) {
      const end = buf.indexOf(0, pos);
      if (end < 0) return pos;
      this.record(buf, pos, end);
      pos = end + 1;
    }
  }

  private record(buf: Buffer, i: number, end: number) {
    this.records++;
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
      ino = buf.latin1Slice(s, i);
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
    while ((c = buf[i++]) !== 46 && c !== 32) sec = sec * 10 + c - 48;
    let frac = false;
    if (c === 46) {
      while ((c = buf[i++]) !== 32) if (c !== 48) frac = true;
    }
    if (neg) sec = frac ? -sec - 1 : -sec;
    const isDir = buf[i] === 100; // 'd'
    i += 2;
    // The entry's folder is the path up to its last slash. When it is the previous entry's folder (the
    // common case), so are the start point, the root and the folder's string: no other work.
    let slash = end - 1;
    while (slash >= i && buf[slash] !== 47) slash--;
    const flen = slash - i;
    let r = this.parentRoot;
    let parent = this.parentStr;
    if (flen < 0 || flen !== this.parentLen || !this.sameParent(buf, i, flen)) {
      // which start point (and so which root) this entry belongs to: the current one or a later one
      while (!this.startsWithPoint(buf, i, end)) {
        if (this.sp + 1 >= this.points.length) {
          this.setPoint(0);
          return;
        }
        this.setPoint(this.sp + 1);
      }
      r = this.points[this.sp].root;
      const relStart = i + this.spRootLen + 1;
      parent = slash < relStart ? "" : utf8(buf, relStart, slash);
      if (flen >= 0) {
        if (flen > this.parentBytes.length) this.parentBytes = Buffer.allocUnsafeSlow(flen * 2);
        buf.copy(this.parentBytes, 0, i, slash);
      }
      this.parentLen = flen;
      this.parentStr = parent;
      this.parentRoot = r;
    }
    if (dev !== this.rootDev[r]) return; // a mount point inside the tree: left out, like du -x
    const name = utf8(buf, slash + 1, end);
    this.agg.entryIn(r, parent, name, isDir, blocks, size, sec, nlink, long ? `${dev}:${ino}` : null);
  }

  private sameParent(buf: Buffer, start: number, len: number): boolean {
    const pb = this.parentBytes;
    for (let k = len - 1; k >= 0; k--) if (buf[start + k] !== pb[k]) return false;
    return true;
  }

  /** Whether the path at buf[i..end) is the current start point or lies inside it. */
  private startsWithPoint(buf: Buffer, i: number, end: number): boolean {
    const sp = this.spBytes;
    if (sp === null) return false;
    const n = sp.length;
    if (end - i < n || (end - i > n && buf[i + n] !== 47)) return false;
    // from the end: start points differ in their last bytes
    for (let k = n - 1; k >= 0; k--) if (buf[i + k] !== sp[k]) return false;
    return true;
  }
}

/**
 * Runs one find job. It runs in the deepest folder that holds all the job's roots, with start points written
 * relative to it ("./..."): find prints shorter paths (fewer bytes to format, pipe and parse).
 */
function runFind(
  ctx: Ctx,
  bin: string,
  absPoints: StartPoint[],
  absPrune: string[],
  rootDev: number[],
  shallow: boolean,
  stdbuf: boolean,
): Promise<void> {
  let cwd = ctx.specs[absPoints[0].root].abs;
  for (const p of absPoints) {
    const r = ctx.specs[p.root].abs;
    while (!(r === cwd || isInside(r, cwd)) && cwd !== "/") cwd = path.dirname(cwd);
  }
  const under = (abs: string) => "./" + (cwd === "/" ? abs.slice(1) : abs.slice(cwd.length + 1));
  const rootLen = new Map<number, number>();
  const points: StartPoint[] = absPoints.map((p) => {
    let len = rootLen.get(p.root);
    if (len === undefined) {
      const r = ctx.specs[p.root].abs;
      len = r === cwd ? 1 : Buffer.byteLength(under(r));
      rootLen.set(p.root, len);
    }
    return { abs: under(p.abs), root: p.root, rootLen: len };
  });
  const prune = absPrune.filter((n) => isInside(n, cwd) || cwd === "/").map(under);
  return new Promise((resolve, reject) => {
    const args = findArgs(points, prune, shallow);
    const child = spawn(stdbuf ? STDBUF[0] : bin, stdbuf ? [...STDBUF.slice(1), bin, ...args] : args, {
      cwd,
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
        const abs = path.resolve(cwd, e.path);
        const root = rootOf(ctx.specs, abs);
        if (root < 0) ctx.agg.errors.add(relToHome(ctx.home, abs), "EFIND", e.message);
        else ctx.agg.unreadable(root, relToHome(ctx.home, abs), codeOf(e.message), e.message);
      }
    });
    child.on("error", (err) => reject(stdbuf ? new StdbufUnusable(err.message) : new FindUnusable(`cannot run ${bin}: ${err.message}`)));
    child.on("close", (code, signal) => {
      if (signal) return reject(new FindUnusable(`${bin} was killed by ${signal}`));
      // stdbuf's own failures (125: stdbuf failed, 126/127: find not runnable); find never exits with these
      if (stdbuf && parser.records === 0 && code !== null && code >= 125) return reject(new StdbufUnusable(fatal.join("; ")));
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

type FindJob = { points: StartPoint[]; shallow: boolean };

/** A folder's entries with a hint of which are folders (no stat: the type readdir reports). */
function listDirTyped(ctx: Ctx, i: number, abs: string): { names: string[]; dirs: boolean[] } | null {
  if (ctx.customReaddir) {
    const names = listDir(ctx, i, abs);
    return names && { names, dirs: names.map(() => true) };
  }
  try {
    const ents = fs.readdirSync(abs, { withFileTypes: true });
    return { names: ents.map((e) => e.name), dirs: ents.map((e) => e.isDirectory()) };
  } catch (err) {
    const code = errCode(err);
    if (code !== "ENOENT") ctx.agg.unreadable(i, relToHome(ctx.home, abs), code, errText(err));
    return null;
  }
}

async function walkFind(ctx: Ctx, bin: string, parallel: number): Promise<void> {
  const mounts = readMountPoints();
  const rootDev: number[] = [];
  // Start points: the folders two levels below each root (find measures everything inside them), and the
  // first-level folders that hold other entries (a shallow find prints just those). Node measures the roots
  // and their first level itself.
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
        const job = jobs[next++];
        if (ctx.stdbuf) {
          try {
            await runFind(ctx, bin, job.points, prune, rootDev, job.shallow, true);
            continue;
          } catch (err) {
            if (!(err instanceof StdbufUnusable)) throw err;
            ctx.stdbuf = false; // nothing was counted: run the job again without it
          }
        }
        await runFind(ctx, bin, job.points, prune, rootDev, job.shallow, false);
      }
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
    const ctx: Ctx = { agg: new Aggregator(specs, nowSec, errors), specs, home, nested, readdir, customReaddir: !!opts.readdir, stdbuf: true };
    try {
      await walkFind(ctx, opts.findBin ?? "find", opts.parallel ?? defaultParallelism());
      return { roots: ctx.agg.finish(), scanner: "find", errors };
    } catch (err) {
      if (!(err instanceof FindUnusable) || mode === "find") throw err;
      // busybox or no find: measure everything again with the Node walker
    }
  }
  const errors = new ErrorLog();
  const ctx: Ctx = { agg: new Aggregator(specs, nowSec, errors), specs, home, nested, readdir, customReaddir: !!opts.readdir, stdbuf: true };
  walkNode(ctx);
  return { roots: ctx.agg.finish(), scanner: "node", errors };
}
