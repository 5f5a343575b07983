// A hard-linked file counts once across the whole report, in the first root (report order) that holds it and
// there at its first path by name: what du does within one invocation. Links arrive in whatever order the
// scanners produce them (two find processes at once), so they are held back and settled in a fixed order.

import type { ErrorLog } from "./errors";

/** A link of a file with more than one: `key` is its "dev:ino". */
export type Link = { root: number; rel: string; bytes: number; size: number; mtime: number; key: string };

const MAX_HELD = 300_000;
const MAX_SEEN = 2_000_000;

export class HardLinks {
  private held: Link[] = [];
  /** Inodes already counted; made at the first settling. */
  private seen: Set<string> | null = null;
  /** Past MAX_SEEN inodes, later links count at every path (memory stays bounded). */
  private off = false;

  constructor(
    private readonly errors: ErrorLog,
    /** Counts a link that won. */
    private readonly count: (link: Link) => void,
  ) {}

  /**
   * Takes a link. Returns true when the caller counts it now (bookkeeping is off), false when it is held or
   * was counted already.
   */
  take(root: number, rel: string, bytes: number, size: number, mtime: number, key: string): boolean {
    if (this.off) return true;
    if (this.seen) {
      // Past the first settling (more than MAX_HELD links), a link counts where it arrives first.
      if (this.seen.has(key)) return false;
      if (this.seen.size >= MAX_SEEN) {
        this.off = true;
        this.errors.add(
          "",
          "ETOOMANYLINKS",
          "too many hard-linked files to de-duplicate; later ones counted at each link",
        );
        return true;
      }
      this.seen.add(key);
      return true;
    }
    this.held.push({ root, rel, bytes, size, mtime, key });
    if (this.held.length >= MAX_HELD) this.settle();
    return false;
  }

  /** Counts each held inode once: in the first root, at the first path by name. */
  settle() {
    const held = this.held;
    this.held = [];
    held.sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.root - b.root || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0),
    );
    this.seen ??= new Set();
    let last: string | null = null;
    for (const link of held) {
      if (link.key === last || this.seen.has(link.key)) continue;
      last = link.key;
      this.seen.add(link.key);
      this.count(link);
    }
  }
}
