// Runs one find job: a process over a batch of start points, GNU find (under stdbuf where it works) or the
// native scanner (lib/reporter/scan/native/scan.c), its output fed to its reader (FindParser or NativeParser) and its
// error lines turned into the scan's errors.

import { spawn } from "node:child_process";
import path from "node:path";
import type { ScanContext } from "./context";
import { codeOfFindMessage } from "./errors";
import { FMT_LONG, FMT_SHORT, FindParser, type StartPoint } from "./find-parser";
import { NativeParser } from "./native-parser";
import type { ScannerSums } from "./native-sums";
import { isInside, relToHome, within } from "./paths";
import type { RootSpec } from "./roots";

/** What measures below the start points: GNU find, or the native scanner at `bin`. */
export type ScanProgram = { kind: "find" | "native"; bin: string };

/**
 * The program cannot do the job (missing, no -printf, cannot run here, killed, a tree deeper than its
 * descriptors): the scan measures everything again with the next scanner (native, then find, then the Node walker).
 */
export class FindUnusable extends Error {}
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

/** Which of the processes given the same shared start points this one is: k of n. */
export type Share = { k: number; n: number };

/**
 * The native scanner's arguments: the paths it leaves out, its share (the first process also the device whose
 * deleted-but-open files it reads, -o), its sums, then its start points (-d,
 * shared: -s), each after its root (-r, with the root's sums) and its depth below it (-l, `depths` in the same
 * order) where they change.
 */
function nativeArgs(
  points: readonly StartPoint[],
  depths: readonly number[],
  prune: readonly string[],
  share: Share | undefined,
  sums: ScannerSums,
  openDev: number | null,
): string[] {
  let depth = 1;
  let root = -1;
  // a root's rules given once: a later root with the same ones (the same array) is told to use them (-u)
  const given = new Map<readonly string[], number>();
  const rulesOf = (k: number): string[] => {
    const args = sums.root(k);
    const first = given.get(args);
    if (first !== undefined) return ["-u", String(first)];
    given.set(args, k);
    return args;
  };
  return [
    ...prune.flatMap((p) => ["-p", p]),
    ...(share ? ["-k", `${share.k}/${share.n}`] : []),
    // one process reads the deleted-but-open files
    ...(openDev !== null && (share?.k ?? 0) === 0 ? ["-o", String(openDev)] : []),
    ...sums.args,
    ...points.flatMap((p, k) => {
      const head = root === p.root ? [] : ["-r", String((root = p.root)), ...rulesOf(p.root)];
      if (depth !== depths[k]) head.push("-l", String((depth = depths[k])));
      return [...head, p.shared ? "-s" : "-d", p.abs];
    }),
  ];
}

/** Each start point's depth below its root (segments). */
function depthsOf(ctx: ScanContext, points: readonly StartPoint[]): number[] {
  return points.map((p) => {
    const rel = p.abs.slice(ctx.specs[p.root].abs.length + 1);
    return rel === "" ? 0 : rel.split("/").length;
  });
}

/** find's arguments: its start points and everything below them, measured. */
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

/** Parses find's error lines ("find: '<path>': <message>"), and the native scanner's ("scan: ..."). */
export function parseFindError(line: string): { path: string; message: string } | null {
  const m = /^(?:find|scan): ['‘](.*)['’]: ([^:]+)$/.exec(line);
  if (!m) return null;
  return { path: m[1].replace(/\\(.)/g, "$1"), message: m[2] };
}

/** Runs the program over a batch of start points: find under stdbuf while that works, else directly. */
export async function runFindJob(
  ctx: ScanContext,
  program: ScanProgram,
  points: StartPoint[],
  prune: string[],
  rootDev: number[],
  share?: Share,
): Promise<void> {
  if (program.kind === "find" && ctx.stdbuf) {
    try {
      return await runFind(ctx, program, points, prune, rootDev, true);
    } catch (err) {
      if (!(err instanceof StdbufUnusable)) throw err;
      ctx.stdbuf = false; // nothing was counted: run the job again without it
    }
  }
  return runFind(ctx, program, points, prune, rootDev, false, share);
}

/**
 * Runs the program once. It runs in the deepest folder that holds all the job's roots, with start points
 * written relative to it ("./..."): it prints shorter paths (fewer bytes to format, pipe and parse).
 */
function runFind(
  ctx: ScanContext,
  program: ScanProgram,
  absPoints: StartPoint[],
  absPrune: string[],
  rootDev: number[],
  stdbuf: boolean,
  share?: Share,
): Promise<void> {
  let cwd = ctx.specs[absPoints[0].root].abs;
  for (const p of absPoints) {
    const r = ctx.specs[p.root].abs;
    while (!within(r, cwd) && cwd !== "/") cwd = path.dirname(cwd);
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
    return { abs: under(p.abs), root: p.root, rootLen: len, shared: p.shared };
  });
  const prune = absPrune.filter((n) => isInside(n, cwd) || cwd === "/").map(under);
  return new Promise((resolve, reject) => {
    const { kind, bin } = program;
    const args =
      kind === "native"
        ? nativeArgs(points, depthsOf(ctx, absPoints), prune, share, ctx.agg.scannerSums(), ctx.openDev)
        : findArgs(points, prune);
    const child = spawn(stdbuf ? STDBUF[0] : bin, stdbuf ? [...STDBUF.slice(1), bin, ...args] : args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C", POSIXLY_CORRECT: undefined },
    });
    const parser =
      kind === "native"
        ? new NativeParser(ctx.agg, ctx.specs, points, rootDev)
        : new FindParser(ctx.agg, ctx.specs, points, rootDev);
    child.stdout.on("data", (chunk: Buffer) => parser.push(chunk));
    let stderr = "";
    const fatal: string[] = [];
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (s: string) => {
      stderr += s;
      let nl: number;
      while ((nl = stderr.indexOf("\n")) >= 0) {
        const line = stderr.slice(0, nl);
        stderr = stderr.slice(nl + 1);
        const e = parseFindError(line);
        if (!e) {
          if (line.trim()) fatal.push(line);
          continue;
        }
        if (/No such file or directory/.test(e.message)) continue; // vanished during the scan
        const abs = path.resolve(cwd, e.path);
        const root = rootOf(ctx.specs, abs);
        if (root < 0) ctx.agg.errors.add(relToHome(ctx.home, abs), "EFIND", e.message);
        else ctx.agg.unreadable(root, relToHome(ctx.home, abs), codeOfFindMessage(e.message), e.message);
      }
    });
    child.on("error", (err) =>
      reject(stdbuf ? new StdbufUnusable(err.message) : new FindUnusable(`cannot run ${bin}: ${err.message}`)),
    );
    child.on("close", (code, signal) => {
      if (signal) return reject(new FindUnusable(`${bin} was killed by ${signal}`));
      // stdbuf's own failures (125: stdbuf failed, 126/127: find not runnable); find never exits with these
      if (stdbuf && parser.records === 0 && code !== null && code >= 125)
        return reject(new StdbufUnusable(fatal.join("; ")));
      if (fatal.length && parser.records === 0) return reject(new FindUnusable(fatal.join("; ")));
      if (fatal.length) for (const f of fatal) ctx.agg.errors.add("", "EFIND", f);
      if (code !== 0 && code !== 1) return reject(new FindUnusable(`${bin} exited with ${code}`));
      resolve();
    });
  });
}

/** The innermost root that holds `abs`, or -1. */
function rootOf(specs: readonly RootSpec[], abs: string): number {
  let best = -1;
  for (let i = 0; i < specs.length; i++) {
    const a = specs[i].abs;
    if (within(abs, a) && (best < 0 || a.length > specs[best].abs.length)) best = i;
  }
  return best;
}
