// The reporter's own files, in the registry's module data layout:
//   ~/.coder-modules/coder/storage-reporter/         (0700)
//     token                                         (0600) the workspace token from enrollment
//     claim                                         (0600) the enrollment's claim, until the token is stored
//     spool/<time>-<report id>.json.gz              (0600) reports waiting to be sent, oldest first
//     lock                                          one run at a time
// Every write is atomic (temporary file + rename).

import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const STATE_SUBDIR = path.join(".coder-modules", "coder", "storage-reporter");
export const SPOOL_MAX_FILES = 50;
export const SPOOL_MAX_BYTES = 20 * 1024 * 1024;
const LOCK_STALE_MS = 2 * 60 * 60 * 1000;
/** A full file system, or the user's quota reached. */
export const isDiskFull = (err: unknown) => ["ENOSPC", "EDQUOT"].includes((err as NodeJS.ErrnoException).code ?? "");

// Whether one of this run's own writes failed for lack of space: the report says so (writesFailedNoSpace), since
// the owner's home is full then whatever df's figures say. One run per process (the run lock): main resets it.
let noSpaceThisRun = false;
/** Notes a failed write of the reporter's own files; true when it failed for lack of space. */
export function noteWriteFailure(err: unknown): boolean {
  if (isDiskFull(err)) noSpaceThisRun = true;
  return isDiskFull(err);
}
export const writesFailedNoSpace = () => noSpaceThisRun;
export function startRun() {
  noSpaceThisRun = false;
}

export function stateDir(home: string): string {
  return path.join(home, STATE_SUBDIR);
}

export function ensureDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    fs.chmodSync(dir, 0o700);
  } catch {
    /* not ours to change */
  }
}

/** Writes `data` to `file` atomically with the given mode. */
export function writeAtomic(file: string, data: string | Buffer, mode = 0o600) {
  const tmp = path.join(path.dirname(file), `.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
  const fd = fs.openSync(tmp, "wx", mode);
  try {
    try {
      fs.writeSync(fd, typeof data === "string" ? Buffer.from(data) : data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    // A full disk fails the write (or a short write leaves half a file): never leave it behind.
    fs.rmSync(tmp, { force: true });
    noteWriteFailure(err);
    throw err;
  }
}

export function readToken(dir: string): string | null {
  try {
    const t = fs.readFileSync(path.join(dir, "token"), "utf8").trim();
    return t || null;
  } catch {
    return null;
  }
}

export function writeToken(dir: string, token: string) {
  ensureDir(dir);
  writeAtomic(path.join(dir, "token"), token + "\n", 0o600);
}

const CLAIM = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The claim sent with an enrollment (lib/report-format/schema.ts enrollmentClaim): made once and kept until the token
 * is stored, so that asking again after an answer lost on the way enrolls the same workspace. Null when it
 * cannot be kept (a full disk): the enrollment goes without one, as before claims.
 */
export function enrollmentClaim(dir: string): string | null {
  const file = path.join(dir, "claim");
  try {
    const kept = fs.readFileSync(file, "utf8").trim();
    if (CLAIM.test(kept)) return kept;
  } catch {
    /* none yet */
  }
  const claim = crypto.randomBytes(32).toString("base64url");
  try {
    ensureDir(dir);
    writeAtomic(file, claim + "\n", 0o600);
    return claim;
  } catch {
    return null;
  }
}

/** Forgets the claim once the token it was for is stored. */
export function forgetClaim(dir: string) {
  fs.rmSync(path.join(dir, "claim"), { force: true });
}

/** Writes this run's lock; on a full disk the run goes on without one (its report says the disk is full). */
function writeLock(fd: number, file: string) {
  try {
    fs.writeSync(fd, `${process.pid} ${Date.now()}\n`);
  } catch (err) {
    if (!noteWriteFailure(err)) throw err;
    fs.rmSync(file, { force: true });
  } finally {
    fs.closeSync(fd);
  }
}

/** Takes the run lock; false when another live run holds it. */
export function acquireLock(dir: string): boolean {
  try {
    ensureDir(dir);
  } catch (err) {
    if (noteWriteFailure(err)) return true;
    throw err;
  }
  const file = path.join(dir, "lock");
  for (let i = 0; i < 2; i++) {
    try {
      writeLock(fs.openSync(file, "wx", 0o600), file);
      return true;
    } catch (err) {
      if (noteWriteFailure(err)) return true; // not even an empty lock file fits
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let pid = 0;
      let at = 0;
      try {
        [pid, at] = fs.readFileSync(file, "utf8").trim().split(" ").map(Number);
      } catch {
        /* vanished: try again */
      }
      if (pid && pid !== process.pid && alive(pid) && Date.now() - at < LOCK_STALE_MS) return false;
      fs.rmSync(file, { force: true }); // stale
    }
  }
  return false;
}

/** Keeps a long run's lock fresh (a lock older than 2 hours counts as stale): rewrites its time if it is ours. */
export function refreshLock(dir: string) {
  const file = path.join(dir, "lock");
  try {
    if (fs.readFileSync(file, "utf8").startsWith(`${process.pid} `))
      writeAtomic(file, `${process.pid} ${Date.now()}\n`);
  } catch {
    /* gone: nothing to refresh */
  }
}

export function releaseLock(dir: string) {
  const file = path.join(dir, "lock");
  try {
    if (fs.readFileSync(file, "utf8").startsWith(`${process.pid} `)) fs.rmSync(file, { force: true });
  } catch {
    /* already gone */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export type SpooledReport = { file: string; id: string };

/** Reports waiting to be sent, bounded in count and bytes (oldest dropped first). */
export class Spool {
  readonly dir: string;
  constructor(
    stateDirectory: string,
    readonly maxFiles = SPOOL_MAX_FILES,
    readonly maxBytes = SPOOL_MAX_BYTES,
  ) {
    this.dir = path.join(stateDirectory, "spool");
  }

  /** Oldest first. */
  list(): SpooledReport[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: SpooledReport[] = [];
    for (const n of names.sort()) {
      const m = /^\d{15}-([0-9a-f-]{36})\.json\.gz$/.exec(n);
      if (m) out.push({ file: path.join(this.dir, n), id: m[1] });
      else if (n.startsWith(".tmp-")) this.removeStaleTemp(path.join(this.dir, n));
    }
    return out;
  }

  private removeStaleTemp(file: string) {
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > 60 * 60 * 1000) fs.rmSync(file, { force: true });
    } catch {
      /* ignore */
    }
  }

  read(r: SpooledReport): Buffer {
    return fs.readFileSync(r.file);
  }

  remove(r: SpooledReport) {
    fs.rmSync(r.file, { force: true });
  }

  /**
   * Adds a gzipped report body, dropping the oldest reports to stay within bounds (`dropped.bounds`) and, when
   * the disk is full, to make room for the newest (`dropped.full`). `lost`: even an empty spool had no room.
   */
  add(id: string, gzBody: Buffer, collectedAtMs: number): { dropped: { bounds: number; full: number }; lost: boolean } {
    ensureDir(path.dirname(this.dir));
    ensureDir(this.dir);
    const name = `${String(Math.max(0, Math.floor(collectedAtMs))).padStart(15, "0")}-${id}.json.gz`;
    let full = 0;
    for (;;) {
      try {
        writeAtomic(path.join(this.dir, name), gzBody);
        break;
      } catch (err) {
        if (!isDiskFull(err)) throw err;
        if (!this.dropOldest(id)) return { dropped: { bounds: 0, full }, lost: true };
        full++;
      }
    }
    return { dropped: { bounds: this.enforce(), full }, lost: false };
  }

  /** Removes the oldest spooled report (never `keep`); false when there is none. */
  dropOldest(keep?: string): boolean {
    const oldest = this.list().find((r) => r.id !== keep);
    if (oldest) this.remove(oldest);
    return Boolean(oldest);
  }

  private enforce(): number {
    const items = this.list().map((r) => {
      let size = 0;
      try {
        size = fs.statSync(r.file).size;
      } catch {
        /* gone */
      }
      return { r, size };
    });
    let total = items.reduce((s, x) => s + x.size, 0);
    let dropped = 0;
    while (items.length > 0 && (items.length > this.maxFiles || total > this.maxBytes)) {
      const x = items.shift()!; // at most maxFiles + 1 items: shift is fine here
      this.remove(x.r);
      total -= x.size;
      dropped++;
    }
    return dropped;
  }
}
