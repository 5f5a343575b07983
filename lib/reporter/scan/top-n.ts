// A root's largest entries, kept while its entries stream in: most entries are turned away by one comparison
// with the smallest kept, before any path string is built for them.

import type { LargestEntry } from "@/lib/report-format/schema";

/** A largest entry while the scan runs: mtime in seconds, made an ISO string in the report. */
export type Candidate = Omit<LargestEntry, "mtime"> & { mtime: number };

/**
 * What TopN remembers on a folder's shared facts to settle ties on size without building the entry's path:
 * how the folder's path compares with the smallest kept entry's, as of `tieVersion`.
 */
export type TieCache = { parent: string; tieVersion: number; tieCmp: number; tieTail: string };

/** The N largest by bytes; ties broken by path so the result never depends on arrival order. */
export class TopN {
  private items: Candidate[] = [];
  private floor = 0;
  private floorPath = "";
  private full = false;
  /** Changes whenever floor or floorPath does, which invalidates every TieCache. */
  private version = 0;
  constructor(private readonly n: number) {}
  /** `wants` for the entry `name` in the folder of `info`, without building its path. */
  wantsIn(bytes: number, info: TieCache, name: string): boolean {
    if (bytes <= 0) return false;
    if (!this.full || bytes > this.floor) return true;
    if (bytes < this.floor) return false;
    // a tie: path < floorPath, where path is parent + "/" + name
    if (info.tieVersion !== this.version) {
      const f = this.floorPath;
      const q = info.parent === "" ? "" : info.parent + "/";
      if (f.startsWith(q)) {
        info.tieCmp = 0;
        info.tieTail = f.slice(q.length);
      } else info.tieCmp = q < f.slice(0, q.length) ? -1 : 1;
      info.tieVersion = this.version;
    }
    return info.tieCmp < 0 || (info.tieCmp === 0 && name < info.tieTail);
  }
  /** Whether an entry of this size and path would enter the list (check before building the candidate). */
  wants(bytes: number, path: string): boolean {
    if (bytes <= 0) return false;
    if (!this.full) return true;
    return bytes > this.floor || (bytes === this.floor && path < this.floorPath);
  }
  add(c: Candidate) {
    if (!this.wants(c.bytes, c.path)) return;
    this.items.push(c);
    if (this.items.length >= this.n * 8) this.trim();
  }
  private trim() {
    this.items.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (this.items.length >= this.n) {
      this.items.length = this.n;
      this.full = true;
      this.floor = this.items[this.n - 1].bytes;
      this.floorPath = this.items[this.n - 1].path;
      this.version++;
    }
  }
  result(): Candidate[] {
    this.trim();
    return this.items;
  }
}
