// The file-system side of acting on a unit, built so that it cannot reach outside the root: every path is
// walked from the root's real path one component at a time with lstat (a symbolic link is never followed,
// whatever it points to), every entry must sit on the root's file system, and removal unlinks a link as a
// link. A unit is measured twice, when planning and right before acting, and must not have changed: every entry
// keeps its identity (device, inode, kind, size, mtime and ctime), so even a change that leaves the mtime alone
// (a chmod, a rename into place) shows.

import fs from "node:fs";
import path from "node:path";

export type RootHandle = { abs: string; dev: bigint };

/** One entry of a unit, as lstat saw it. Paths relative to the root. */
export type UnitEntry = {
  rel: string;
  kind: "file" | "dir" | "link" | "other";
  dev: bigint;
  ino: bigint;
  /** Apparent size (st_size). */
  size: bigint;
  /** Allocated bytes (st_blocks × 512). */
  bytes: number;
  /** Nanoseconds: the re-check compares them exactly. */
  mtimeNs: bigint;
  ctimeNs: bigint;
};

export type Measured = {
  /** Entries, children before their folder (the order to remove them in). */
  entries: UnitEntry[];
  /** Kind of each top entry, in the order given. */
  kinds: UnitEntry["kind"][];
  /** Allocated bytes, each inode once (du). */
  bytes: number;
  /** Newest mtime of any entry, seconds: the unit's age. */
  newest: number;
  /** Newest ctime of any entry, seconds: counted in the age only when a run asks for it. */
  newestChange: number;
};

export class Refused extends Error {
  constructor(
    readonly reason: "outside-root" | "changed" | "gone",
    message: string,
  ) {
    super(message);
  }
}

const kindOf = (st: fs.BigIntStats): UnitEntry["kind"] =>
  st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";

function lstat(abs: string): fs.BigIntStats | null {
  return fs.lstatSync(abs, { bigint: true, throwIfNoEntry: false }) ?? null;
}

/** The root as it is now: a real folder (not a link) on one file system, else Refused. */
export function openRoot(abs: string): RootHandle {
  const st = lstat(abs);
  if (!st) throw new Refused("gone", `${abs} does not exist`);
  if (!st.isDirectory()) throw new Refused("outside-root", `${abs} is not a folder (a link?)`);
  if (fs.realpathSync(abs) !== abs) throw new Refused("outside-root", `${abs} is reached through a symbolic link`);
  return { abs, dev: st.dev };
}

/** Checks a path relative to the root: plain segments only. */
export function checkRel(rel: string): string[] {
  const segs = rel.split("/");
  if (rel === "" || rel.startsWith("/") || segs.some((s) => s === "" || s === "." || s === ".." || s.includes("\0"))) {
    throw new Refused("outside-root", `${JSON.stringify(rel)} is not a plain path inside the root`);
  }
  return segs;
}

/** Every folder on the way from the root to `rel`'s parent is a real folder on the root's file system. */
export function checkParents(root: RootHandle, rel: string) {
  const segs = checkRel(rel);
  let abs = root.abs;
  for (let i = 0; i < segs.length - 1; i++) {
    abs += "/" + segs[i];
    const st = lstat(abs);
    if (!st) throw new Refused("gone", `${abs} is gone`);
    if (!st.isDirectory())
      throw new Refused("outside-root", `${abs} is not a folder (a symbolic link is never followed)`);
    if (st.dev !== root.dev) throw new Refused("outside-root", `${abs} is on another file system`);
  }
}

/**
 * Measures a unit's top entries and everything below them, without following any link. Its bytes are what
 * deleting it frees: a file with more than one link counts once, and only when every link of it is inside
 * the unit (the report's figure counts the same, unit-tally.ts).
 */
export function measure(root: RootHandle, tops: readonly string[]): Measured {
  const entries: UnitEntry[] = [];
  const kinds: UnitEntry["kind"][] = [];
  /** Files with more than one link: their bytes, link count and links found here. */
  const linked = new Map<string, { bytes: number; nlink: bigint; found: bigint }>();
  let bytes = 0;
  let newest = -Infinity;
  let newestChange = -Infinity;
  const visit = (rel: string, st: fs.BigIntStats) => {
    if (st.dev !== root.dev) throw new Refused("outside-root", `${rel} is on another file system`);
    const e: UnitEntry = {
      rel,
      kind: kindOf(st),
      dev: st.dev,
      ino: st.ino,
      size: st.size,
      bytes: Number(st.blocks) * 512,
      mtimeNs: st.mtimeNs,
      ctimeNs: st.ctimeNs,
    };
    if (e.kind === "dir" || st.nlink === 1n) bytes += e.bytes;
    else {
      const key = `${st.dev}:${st.ino}`;
      const l = linked.get(key);
      if (l) l.found++;
      else linked.set(key, { bytes: e.bytes, nlink: st.nlink, found: 1n });
    }
    newest = Math.max(newest, Number(st.mtimeNs / 1_000_000_000n));
    newestChange = Math.max(newestChange, Number(st.ctimeNs / 1_000_000_000n));
    if (e.kind === "dir") {
      for (const name of fs.readdirSync(root.abs + "/" + rel).sort()) {
        const child = lstat(root.abs + "/" + rel + "/" + name);
        if (child) visit(rel + "/" + name, child);
      }
    }
    entries.push(e);
    return e.kind;
  };
  for (const top of tops) {
    checkParents(root, top);
    const st = lstat(root.abs + "/" + top);
    if (!st) throw new Refused("gone", `${top} is gone`);
    kinds.push(visit(top, st));
  }
  for (const l of linked.values()) if (l.found >= l.nlink) bytes += l.bytes;
  return { entries, kinds, bytes, newest, newestChange };
}

/**
 * Why `now` differs from `before`, or null when the unit is as planned: the same entries, each with the same
 * device, inode, kind, size, mtime and ctime. The ctime is what proves nothing happened in between: an mtime
 * can be set back by anyone, a ctime only moves forward.
 */
export function difference(before: Measured, now: Measured): string | null {
  if (before.kinds.join() !== now.kinds.join())
    return `type changed (${before.kinds.join("+")} → ${now.kinds.join("+")})`;
  if (before.entries.length !== now.entries.length)
    return `entries changed (${before.entries.length} → ${now.entries.length})`;
  if (before.bytes !== now.bytes) return `size changed (${before.bytes} → ${now.bytes} bytes)`;
  for (let i = 0; i < now.entries.length; i++) {
    const a = before.entries[i];
    const b = now.entries[i];
    if (a.rel !== b.rel || a.dev !== b.dev || a.ino !== b.ino || a.kind !== b.kind) return `${b.rel} was replaced`;
    if (a.size !== b.size || a.bytes !== b.bytes) return `${b.rel} changed size`;
    if (a.mtimeNs !== b.mtimeNs) return `${b.rel} was modified since planning`;
    if (a.ctimeNs !== b.ctimeNs) return `${b.rel} changed status since planning (owner, mode, links or a rename)`;
  }
  return null;
}

/**
 * Gives the folder `abs` its owner's write and search bits where it lacks them (Go's module cache is 0555), so
 * that its entries can be removed and it can be renamed into another folder (which rewrites its `..`). Through a
 * descriptor opened without following a link: a folder swapped for a link meanwhile is never touched.
 */
export function makeWritable(abs: string, mode: number) {
  if ((mode & 0o300) === 0o300) return;
  const fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    fs.fchmodSync(fd, (mode & 0o7777) | 0o300);
  } finally {
    fs.closeSync(fd);
  }
}

/** makeWritable for `abs` where it is a folder (lstat: a link is left alone). */
export function makeFolderWritable(abs: string) {
  const st = lstat(abs);
  if (st?.isDirectory()) makeWritable(abs, Number(st.mode));
}

/**
 * Removes a tree bottom-up without following links (a link is unlinked, its target untouched), staying on
 * device `dev`; read-only folders are made writable first. Returns how many entries could not be removed, with
 * the first error.
 */
export function removeTree(abs: string, dev: bigint): { remaining: number; error: string | null } {
  let remaining = 0;
  let error: string | null = null;
  const walk = (p: string): boolean => {
    const st = lstat(p);
    if (!st) return true;
    if (st.dev !== dev) {
      remaining++;
      error ??= `${p} is on another file system: left in place`;
      return false;
    }
    try {
      if (st.isDirectory()) {
        makeWritable(p, Number(st.mode));
        let ok = true;
        for (const name of fs.readdirSync(p)) ok = walk(path.join(p, name)) && ok;
        if (!ok) {
          remaining++;
          return false;
        }
        fs.rmdirSync(p);
      } else fs.unlinkSync(p);
      return true;
    } catch (err) {
      remaining++;
      error ??= `${p}: ${(err as Error).message}`;
      return false;
    }
  };
  walk(abs);
  return { remaining, error };
}

/** Like checkParents, creating the missing folders (a restore whose project folder went away meanwhile). */
export function ensureParents(root: RootHandle, rel: string) {
  const segs = checkRel(rel);
  let abs = root.abs;
  for (let i = 0; i < segs.length - 1; i++) {
    abs += "/" + segs[i];
    let st = lstat(abs);
    if (!st) {
      fs.mkdirSync(abs, { mode: 0o700 });
      st = lstat(abs)!;
    }
    if (!st.isDirectory())
      throw new Refused("outside-root", `${abs} is not a folder (a symbolic link is never followed)`);
    if (st.dev !== root.dev) throw new Refused("outside-root", `${abs} is on another file system`);
  }
}

/**
 * Renames each `from[i]` to `to[i]` (absolute paths on one file system: instant, nothing copied). All or
 * none: when one rename fails, the ones done are renamed back and the error is thrown.
 */
export function renameAll(from: readonly string[], to: readonly string[]) {
  const done: number[] = [];
  try {
    for (let i = 0; i < from.length; i++) {
      if (lstat(to[i])) throw new Refused("changed", `${to[i]} is occupied`);
      fs.renameSync(from[i], to[i]);
      done.push(i);
    }
  } catch (err) {
    for (const i of done.reverse()) {
      try {
        fs.renameSync(to[i], from[i]);
      } catch {
        /* reported with the error below: the manifest still names it */
      }
    }
    throw err;
  }
}
