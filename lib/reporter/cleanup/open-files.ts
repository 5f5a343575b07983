// Files that a process holds open or has locked, read once per job from /proc: every readable
// /proc/<pid>/fd/* (the workspace user's own processes; stat follows the link to the open file, deleted or
// not), each process's working folder and program file, matched by device and inode; and /proc/locks, matched by inode
// (its device numbers are not always st_dev's, e.g. on overlay file systems, so any device counts).

import fs from "node:fs";

export type OpenFiles = {
  /** "dev:ino" of open files and working folders. */
  open: Set<string>;
  /** Inodes with a lock (POSIX, flock, OFD). */
  locked: Set<bigint>;
  has(dev: bigint, ino: bigint): boolean;
};

export function readOpenFiles(proc = "/proc"): OpenFiles {
  const open = new Set<string>();
  const locked = new Set<bigint>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync(proc).filter((n) => /^\d+$/.test(n));
  } catch {
    /* no /proc: nothing known to be open */
  }
  const note = (p: string) => {
    try {
      const st = fs.statSync(p, { bigint: true });
      open.add(`${st.dev}:${st.ino}`);
    } catch {
      /* closed meanwhile, or not ours to read */
    }
  };
  for (const pid of pids) {
    if (pid === String(process.pid)) continue; // our own log and manifests are never units
    let fds: string[];
    try {
      fds = fs.readdirSync(`${proc}/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) note(`${proc}/${pid}/fd/${fd}`);
    note(`${proc}/${pid}/cwd`);
    note(`${proc}/${pid}/exe`); // a running program's file: an old release still in use is not old
  }
  try {
    for (const line of fs.readFileSync(`${proc}/locks`, "utf8").split("\n")) {
      const m = /\s[0-9a-f]+:[0-9a-f]+:(\d+)\s/.exec(line);
      if (m) locked.add(BigInt(m[1]));
    }
  } catch {
    /* no lock table */
  }
  return { open, locked, has: (dev, ino) => open.has(`${dev}:${ino}`) || locked.has(ino) };
}
