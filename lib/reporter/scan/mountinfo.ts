// /proc/self/mountinfo read into mounts, and the mount that holds a path. Format (proc(5)): mount id, parent id,
// major:minor, root, mount point, options, optional fields, "-", file system type, source, super options; the
// paths escape space, tab, newline and backslash as octal (\040).

import fs from "node:fs";

export type Mount = { id: number; root: string; mountPoint: string; fsType: string; source: string };

export const MOUNTINFO = "/proc/self/mountinfo";

/** A field of mountinfo read as Latin-1 (one char a byte), its octal escapes undone, then decoded as UTF-8. */
const unescape = (s: string) =>
  Buffer.from(
    s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))),
    "latin1",
  ).toString("utf8");

/** The mounts in mountinfo's order (a later mount over the same point hides an earlier one); `text` as Latin-1. */
export function parseMountinfo(text: string): Mount[] {
  const out: Mount[] = [];
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    const dash = f.indexOf("-", 6);
    if (f.length < 10 || dash < 0 || dash + 2 >= f.length) continue;
    out.push({
      id: Number(f[0]),
      root: unescape(f[3]),
      mountPoint: unescape(f[4]),
      fsType: f[dash + 1],
      source: unescape(f[dash + 2]),
    });
  }
  return out;
}

/** The mounts of this process; null where mountinfo cannot be read (not Linux, no /proc). */
export function readMounts(file = MOUNTINFO): Mount[] | null {
  try {
    return parseMountinfo(fs.readFileSync(file, "latin1"));
  } catch {
    return null;
  }
}

/**
 * The mount that holds `real` (a path whose symbolic links are resolved): the one with the longest mount point
 * that contains it, the last of those listed when several are mounted on one point.
 */
export function mountOf(mounts: readonly Mount[], real: string): Mount | null {
  let best: Mount | null = null;
  for (const m of mounts) {
    const p = m.mountPoint;
    const holds = p === "/" || real === p || real.startsWith(p + "/");
    if (holds && (!best || p.length >= best.mountPoint.length)) best = m;
  }
  return best;
}
