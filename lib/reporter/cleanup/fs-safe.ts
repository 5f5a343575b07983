// The file-system side of acting on a unit, built so that it cannot reach outside the root: every path is
// walked from the root's real path one component at a time with lstat (a symbolic link is never followed,
// whatever it points to), every entry must sit on the root's file system, and removal unlinks a link as a
// link. A unit is measured twice, when planning and right before acting, and must not have changed.

import fs from "node:fs";
import path from "node:path";

export type RootHandle = { abs: string; dev: bigint };

/** One entry of a unit, as lstat saw it. Paths relative to the root. */
export type UnitEntry = { rel: string; kind: "file" | "dir" | "link" | "other"; dev: bigint; ino: bigint; bytes: number; mtime: number; ctime: number };

export type Measured = {
  /** Entries, children before their folder (the order to remove them in). */
  entries: UnitEntry[];
  /** Kind of each top entry, in the order given. */
  kinds: UnitEntry["kind"][];
  /** Allocated bytes, each inode once (du). */
  bytes: number;
  /** Newest mtime or ctime of any entry, seconds. */
  newest: number;
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
    if (!st.isDirectory()) throw new Refused("outside-root", `${abs} is not a folder (a symbolic link is never followed)`);
    if (st.dev !== root.dev) throw new Refused("outside-root", `${abs} is on another file system`);
  }
}

/** Measures a unit's top entries and everything below them, without following any link. */
export function measure(root: RootHandle, tops: readonly string[]): Measured {
  const entries: UnitEntry[] = [];
  const kinds: UnitEntry["kind"][] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let newest = -Infinity;
  const visit = (rel: string, st: fs.BigIntStats) => {
    if (st.dev !== root.dev) throw new Refused("outside-root", `${rel} is on another file system`);
    const e: UnitEntry = {
      rel,
      kind: kindOf(st),
      dev: st.dev,
      ino: st.ino,
      bytes: Number(st.blocks) * 512,
      mtime: Number(st.mtimeMs / 1000n),
      ctime: Number(st.ctimeMs / 1000n),
    };
    const key = `${st.dev}:${st.ino}`;
    if (e.kind === "dir" || st.nlink === 1n || !seen.has(key)) bytes += e.bytes;
    if (st.nlink > 1n) seen.add(key);
    newest = Math.max(newest, e.mtime, e.ctime);
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
  return { entries, kinds, bytes, newest };
}

/** Why `now` differs from `before` (type, entries, size or times), or null when the unit is as planned. */
export function difference(before: Measured, now: Measured): string | null {
  if (before.kinds.join() !== now.kinds.join()) return `type changed (${before.kinds.join("+")} → ${now.kinds.join("+")})`;
  if (before.entries.length !== now.entries.length) return `entries changed (${before.entries.length} → ${now.entries.length})`;
  if (before.bytes !== now.bytes) return `size changed (${before.bytes} → ${now.bytes} bytes)`;
  if (before.newest !== now.newest) return "modified since planning";
  for (let i = 0; i < now.entries.length; i++) {
    const a = before.entries[i];
    const b = now.entries[i];
    if (a.rel !== b.rel || a.ino !== b.ino || a.kind !== b.kind) return `${b.rel} changed`;
  }
  return null;
}

/**
 * Removes a tree bottom-up without following links (a link is unlinked, its target untouched), staying on
 * device `dev`. Returns how many entries could not be removed, with the first error.
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
    if (!st.isDirectory()) throw new Refused("outside-root", `${abs} is not a folder (a symbolic link is never followed)`);
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
