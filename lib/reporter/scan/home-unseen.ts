// What a one-device walk of the home cannot count, measured where it can be: the mounts inside the home (their
// own volumes, by statfs), files deleted but still held open by a process (from /proc, the workspace user's own
// processes), and, as root only, the files hidden under the mount points inside the home. The file system's
// own metadata stays unmeasurable: the dashboard names it, with what the reporter could not measure, as what
// remains of the volume's Used.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { isInside } from "./paths";

export type HomeMount = { path: string; fsType: string; totalBytes: number; usedBytes: number };

/** Unescapes a mountinfo path field (`\040` for a space). */
const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));

/** The mounts strictly inside `home` (real path), with their file system type and df's Size and Used. */
export function mountsUnder(home: string, mountinfo = "/proc/self/mountinfo"): HomeMount[] {
  let text: string;
  try {
    text = fs.readFileSync(mountinfo, "utf8");
  } catch {
    return [];
  }
  const out = new Map<string, HomeMount>();
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    const dash = f.indexOf("-", 6);
    if (f.length < 5 || dash < 0) continue;
    const at = unescape(f[4]);
    if (!isInside(at, home)) continue;
    const mount: HomeMount = {
      path: at.slice(home.length + 1),
      fsType: f[dash + 1] ?? "",
      totalBytes: 0,
      usedBytes: 0,
    };
    try {
      const s = fs.statfsSync(at);
      mount.totalBytes = s.blocks * s.bsize;
      mount.usedBytes = Math.max(0, (s.blocks - s.bfree) * s.bsize);
    } catch {
      /* not ours to read: listed without figures */
    }
    out.set(at, mount); // a later mount on the same point hides the earlier one
  }
  return [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

export type DeletedOpen = { files: number; bytes: number };

/**
 * Files on the device `dev` that were deleted while a process still holds them open: their blocks stay used
 * until the last descriptor closes, and no walk finds them. Each inode once.
 */
export function deletedButOpen(dev: number, proc = "/proc"): DeletedOpen {
  const seen = new Set<number>();
  let bytes = 0;
  let pids: string[] = [];
  try {
    pids = fs.readdirSync(proc).filter((n) => /^\d+$/.test(n));
  } catch {
    return { files: 0, bytes: 0 };
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`${proc}/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      const p = `${proc}/${pid}/fd/${fd}`;
      try {
        if (!fs.readlinkSync(p).endsWith(" (deleted)")) continue;
        const st = fs.statSync(p);
        if (st.dev !== dev || st.nlink !== 0 || !st.isFile() || seen.has(st.ino)) continue;
        seen.add(st.ino);
        bytes += st.blocks * 512;
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return { files: seen.size, bytes };
}

/**
 * Make a bind mount of the home without its submounts, where each mount point shows the folder under it, and
 * size those folders as `du -sxB1` does. In a mount namespace of its own (unshare), which goes with the
 * process: nothing else on the machine sees the bind mount.
 */
const UNDER_MOUNTS_SCRIPT = `d=$(mktemp -d) || exit 1
mount --bind -- "$1" "$d" || { rmdir "$d"; exit 1; }
shift
cd "$d" && du -sxB1 -- "$@"
cd / && umount "$d" && rmdir "$d"`;

/**
 * Bytes of the home's volume hidden under the mount points inside the home: what a folder held before a volume
 * was mounted on it (the folder itself too), which neither the walk nor du -x sees. Only root may look under a
 * mount; null otherwise, or when the look fails.
 */
export function hiddenUnderMounts(home: string, mounts: readonly HomeMount[]): number | null {
  if (process.getuid?.() !== 0) return null;
  // a mount inside another one hides what lies on that one's volume, not the home's
  const outer = mounts.filter((m) => !mounts.some((o) => o !== m && isInside(m.path, o.path)));
  if (outer.length === 0) return 0;
  const r = spawnSync(
    "unshare",
    [
      "--mount",
      "--propagation",
      "private",
      "--",
      "sh",
      "-c",
      UNDER_MOUNTS_SCRIPT,
      "sh",
      home,
      ...outer.map((m) => m.path),
    ],
    { encoding: "utf8", timeout: 120_000, stdio: ["ignore", "pipe", "ignore"] },
  );
  if (r.status !== 0 || r.error) return null;
  const lines = r.stdout.trim().split("\n");
  if (lines.length !== outer.length) return null;
  let bytes = 0;
  for (const line of lines) {
    const n = Number(line.slice(0, line.indexOf("\t")));
    if (!Number.isSafeInteger(n) || n < 0) return null;
    bytes += n;
  }
  return bytes;
}

/** What the home's walk cannot see, as the report's `home` carries it (each part only where there is any). */
export type HomeUnseen = { mounts: HomeMount[]; hiddenUnderMounts: number | null; deletedOpen: DeletedOpen | null };

/** The device of the home folder, or null where there is none. */
export function homeDevice(home: string): number | null {
  return fs.lstatSync(home, { throwIfNoEntry: false })?.dev ?? null;
}

/** The deleted-but-open files as a report carries them: none where there are none. */
export const reportedOpen = (open: DeletedOpen | null): DeletedOpen | null => (open?.files ? open : null);

/**
 * The mounts inside `home`, what they hide and the deleted files still open on device `openOn` (the home's; null
 * where the native scanner reads them). None of it depends on the walk's figures: a run reads it while the
 * scanner processes walk the tree.
 */
export function homeUnseen(home: string, openOn: number | null): HomeUnseen {
  const mounts = mountsUnder(home);
  return {
    mounts,
    hiddenUnderMounts: mounts.length ? hiddenUnderMounts(home, mounts) : null,
    deletedOpen: openOn === null ? null : reportedOpen(deletedButOpen(openOn)),
  };
}
