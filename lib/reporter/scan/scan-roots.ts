// Measures storage roots. Three scanners feed the same Aggregator and give identical numbers:
//
// - "native" and "find" (fast path, walk-find.ts): Node measures each root's first level itself, then hands
//   what lies below to a program, one process per core up to two (the stat calls run there, on both cores,
//   while Node parses the NUL-separated stream). "native" runs the reporter's own scanner
//   (lib/reporter/scan/native/scan.c, embedded in the bundle: native-scanner.ts), whose processes share out the
//   first-level folders' entries; "find" GNU `find -xdev -printf`, dealt the second-level folders while Node
//   measures the second level's files, at about a third more CPU time.
// - "node" (fallback, walk-node.ts, e.g. busybox without -printf): an iterative readdir + lstat walk through
//   Node's fs binding where it answers as the public API (raw-fs.ts).
//
// Both never follow symbolic links, never cross into another filesystem (a mount point inside a root is
// left out entirely, as `du -x` does), and skip roots nested inside the root being scanned (they are
// measured as their own root).

import fs from "node:fs";
import path from "node:path";
import type { StorageRoot } from "@/lib/report-format/schema";
import type { ProtectList } from "../cleanup/protect";
import type { FoundUnit } from "../cleanup/unit-counts";
import { Aggregator } from "./aggregate";
import type { ScanContext } from "./context";
import { ErrorLog } from "./errors";
import type { DeletedOpen } from "./home-unseen";
import { FindUnusable, type ScanProgram } from "./find-process";
import { isInside } from "./paths";
import type { RootTally } from "./root-tally";
import type { RootSpec } from "./roots";
import { defaultParallelism, walkFind } from "./walk-find";
import { walkNode } from "./walk-node";

export type ScannerMode = "auto" | "native" | "find" | "node";

export type ScanOptions = {
  mode?: ScannerMode;
  /** Home folder, for error paths. */
  home: string;
  /** How many find processes to run at once (default: 2, or 1 on a single core). */
  parallel?: number;
  /** The find binary (default "find"). */
  findBin?: string;
  /** The native scanner's executable (nativeScanner()); absent or null: there is none, find is the fast path. */
  native?: string | null;
  /** Seam for tests: called instead of fs.readdirSync. */
  readdir?: (abs: string) => string[];
  /** The owner's protect list: protected units are counted apart in each recipe's usage. */
  protect?: ProtectList | null;
  /** A job's scan: list every unit of each root's targets (ScanResult.found). */
  collect?: boolean;
  /** Seam for tests: false makes the Node walker use Node's public fs API rather than its binding (raw-fs.ts). */
  nativeFs?: boolean;
  /** The device whose deleted-but-open files the native scanner is to read (ScanResult.deletedOpen). */
  deletedOpenOn?: number;
};

/** The scanner a run asks for, and the native scanner's path where there is one. */
export type ScannerChoice = Required<Pick<ScanOptions, "mode" | "native">>;

export type ScanResult = {
  roots: StorageRoot[];
  scanner: "native" | "find" | "node";
  errors: ErrorLog;
  /** With `collect`: units by root key and target id. */
  found: Map<string, Map<string, FoundUnit[]>>;
  /** The whole home's tally, where a spec was the whole home (home-usage.ts). */
  home: RootTally | null;
  /** The files deleted but held open on `deletedOpenOn`, where the native scanner measured (else null). */
  deletedOpen: DeletedOpen | null;
};

/** Roots that lie strictly inside another root: measured on their own and skipped by the outer root. */
export function nestedRootPaths(specs: readonly RootSpec[]): Set<string> {
  const out = new Set<string>();
  for (const a of specs) for (const b of specs) if (a !== b && isInside(a.abs, b.abs)) out.add(a.abs);
  return out;
}

/** Scans the roots (in order: a hard-linked file counts in the first root that holds it). */
export async function scanRoots(specs: readonly RootSpec[], nowSec: number, opts: ScanOptions): Promise<ScanResult> {
  const home = path.resolve(opts.home);
  const nested = nestedRootPaths(specs);
  const readdir = opts.readdir ?? ((abs: string) => fs.readdirSync(abs));
  const context = (): ScanContext => ({
    agg: new Aggregator(specs, nowSec, new ErrorLog(), {
      protect: opts.protect ?? null,
      collect: opts.collect ?? false,
    }),
    specs,
    home,
    nested,
    readdir,
    customReaddir: !!opts.readdir,
    stdbuf: true,
    nativeFs: opts.nativeFs ?? true,
    openDev: opts.deletedOpenOn ?? null,
  });
  const mode = opts.mode ?? "auto";
  const programs: ScanProgram[] = [];
  if (mode === "native" && !opts.native) throw new FindUnusable("this reporter has no native scanner for this machine");
  if ((mode === "auto" || mode === "native") && opts.native) programs.push({ kind: "native", bin: opts.native });
  if (mode === "auto" || mode === "find") programs.push({ kind: "find", bin: opts.findBin ?? "find" });
  for (const program of programs) {
    const ctx = context();
    try {
      await walkFind(ctx, program, opts.parallel ?? defaultParallelism());
      return finished(ctx, program.kind);
    } catch (err) {
      if (!(err instanceof FindUnusable) || mode !== "auto") throw err;
      // the native scanner cannot run here, busybox, no find: measure everything again with the next one
    }
  }
  const ctx = context();
  walkNode(ctx);
  return finished(ctx, "node");
}

function finished(ctx: ScanContext, scanner: ScanResult["scanner"]): ScanResult {
  const roots = ctx.agg.finish();
  return {
    roots,
    scanner,
    errors: ctx.agg.errors,
    found: ctx.agg.found(),
    home: ctx.agg.wholeHome(),
    deletedOpen: ctx.agg.deletedOpen,
  };
}
