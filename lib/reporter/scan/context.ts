// What both scanners share: the scan's state, and how Node measures an entry itself (lstat) into the
// aggregator. The Node walker measures every entry this way, the find fast path each root and its first level.

import fs from "node:fs";
import type { Aggregator } from "./aggregate";
import { errorCode, errorText } from "./errors";
import { relToHome } from "./paths";
import type { RootSpec } from "./roots";

export type ScanContext = {
  agg: Aggregator;
  specs: readonly RootSpec[];
  home: string;
  /** Roots inside another root: the outer root's scan skips them. */
  nested: Set<string>;
  readdir: (abs: string) => string[];
  /** Whether `readdir` is a test's seam (then folder types are unknown). */
  customReaddir: boolean;
  /** Whether to run find under stdbuf (turned off when stdbuf fails). */
  stdbuf: boolean;
  /** Whether the Node walker may use Node's fs binding (raw-fs.ts); false: the public API (tests cover both). */
  nativeFs: boolean;
  /** The device whose deleted-but-open files the native scanner reads after its walk (-o), or null. */
  openDev: number | null;
};

const mtimeSec = (st: fs.Stats) => Math.floor(st.mtimeMs / 1000);

/** "dev:ino" for a hard-linked file, exact even for inode numbers beyond 2^53 (else the numbers given). */
export function inodeKey(path: string | Buffer, dev: number, ino: number): string {
  try {
    const big = fs.lstatSync(path, { bigint: true });
    return `${big.dev}:${big.ino}`;
  } catch {
    return `${dev}:${ino}`;
  }
}

export function lstatOrNull(abs: string): fs.Stats | null | Error {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch (err) {
    return err as Error;
  }
}

/** Accounts a root's own entry. Returns its lstat, or null when it is absent or unreadable. */
export function startRoot(ctx: ScanContext, i: number): fs.Stats | null {
  const spec = ctx.specs[i];
  const st = lstatOrNull(spec.abs);
  if (st === null) return null;
  if (st instanceof Error) {
    if (errorCode(st) !== "ENOENT" && errorCode(st) !== "ENOTDIR")
      ctx.agg.errors.add(spec.rel, errorCode(st), errorText(st));
    return null;
  }
  ctx.agg.present(i);
  ctx.agg.entry(
    i,
    "",
    st.isDirectory(),
    st.blocks,
    st.size,
    mtimeSec(st),
    st.nlink,
    st.nlink > 1 && !st.isDirectory() ? inodeKey(spec.abs, st.dev, st.ino) : null,
  );
  return st;
}

/** A folder's names; null when it vanished or cannot be read (then it counts as unreadable). */
export function listDir(ctx: ScanContext, i: number, abs: string): string[] | null {
  try {
    return ctx.readdir(abs);
  } catch (err) {
    const code = errorCode(err);
    if (code === "ENOENT") return null;
    ctx.agg.unreadable(i, relToHome(ctx.home, abs), code, errorText(err));
    return null;
  }
}

/** Accounts one entry found by Node (lstat). Returns its stats when it is a folder to go into. */
export function nodeEntry(ctx: ScanContext, i: number, dev: number, abs: string, rel: string): fs.Stats | null {
  if (ctx.nested.size && ctx.nested.has(abs)) return null;
  const st = lstatOrNull(abs);
  if (st === null) return null; // vanished since it was listed
  if (st instanceof Error) {
    ctx.agg.unreadable(i, relToHome(ctx.home, abs), errorCode(st), errorText(st));
    return null;
  }
  if (st.dev !== dev) return null; // a mount point: du -x leaves it out entirely
  const isDir = st.isDirectory();
  ctx.agg.entry(
    i,
    rel,
    isDir,
    st.blocks,
    st.size,
    mtimeSec(st),
    st.nlink,
    st.nlink > 1 && !isDir ? inodeKey(abs, st.dev, st.ino) : null,
  );
  return isDir ? st : null;
}
