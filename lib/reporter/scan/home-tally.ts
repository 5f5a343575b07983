// What the whole-home root keeps beside an ordinary root's figures: the bytes of project dependencies wherever
// they lie, and the size of each folder that holds a copy of its own name. Worked out once per folder
// (FolderFactsCache.fill), so an entry costs one pointer test.

import { HOME_KIND_PATHS, PROJECT_DEP_NAMES, SELF_NESTING_NAMES } from "@/lib/report-format/home-kinds";
import type { DirSize } from "./sizes";

/** At most this many self-nested copies are sized: memory stays bounded on a runaway tree. */
const MAX_COPIES = 1000;

/** Where the segment `name` first occurs in `path` at or after `from` (a whole segment), or -1. */
export function segmentAt(path: string, name: string, from = 0): number {
  for (let at = path.indexOf(name, from); at >= 0; at = path.indexOf(name, at + 1)) {
    const end = at + name.length;
    if ((at === 0 || path.charCodeAt(at - 1) === 47) && (end === path.length || path.charCodeAt(end) === 47)) return at;
  }
  return -1;
}

/** Whether `parent` lies in a folder of a known kind at a fixed place (at most three segments deep). */
function inKnownPlace(parent: string): boolean {
  let cut = -1;
  for (let d = 0; d < 3; d++) {
    cut = parent.indexOf("/", cut + 1);
    if (HOME_KIND_PATHS[cut < 0 ? parent : parent.slice(0, cut)]) return true;
    if (cut < 0) return false;
  }
  return false;
}

/**
 * The per-folder facts the home root adds: what its entries count towards. `known`: the folder lies in a
 * folder of a known kind (a cache's node_modules, as npx keeps them, are the cache's bytes).
 */
export type HomeFacts = { deps: DirSize | null; copy: DirSize | null; known: boolean };

export class HomeTally {
  /** Every project dependency folder's bytes (the outermost of nested ones), with the folders' own blocks. */
  readonly deps: DirSize = { bytes: 0, mtime: 0 };
  /** Each self-nested copy (its path relative to home: `.vscode-server/x/.vscode-server`) and its size. */
  readonly copies = new Map<string, DirSize>();

  /** Fills the facts of the folder `parent` (relative to home). */
  fill(f: HomeFacts, parent: string) {
    f.deps = null;
    f.known = parent !== "" && inKnownPlace(parent);
    if (!f.known) for (const n of PROJECT_DEP_NAMES) if (segmentAt(parent, n) >= 0) f.deps = this.deps;
    f.copy = null;
    for (const n of SELF_NESTING_NAMES) {
      const first = segmentAt(parent, n);
      const second = first < 0 ? -1 : segmentAt(parent, n, first + n.length);
      if (second >= 0) f.copy = this.copy(parent.slice(0, second + n.length));
    }
  }

  /** A folder `name` in the folder whose facts are `f`: its own blocks, where it begins what it counts. */
  dirEntry(f: HomeFacts, parent: string, name: string, bytes: number) {
    if (f.deps === null && !f.known && PROJECT_DEP_NAMES.includes(name)) this.deps.bytes += bytes;
    if (f.copy === null && SELF_NESTING_NAMES.includes(name) && segmentAt(parent, name) >= 0) {
      const c = this.copy(parent + "/" + name);
      if (c) c.bytes += bytes;
    }
  }

  private copy(key: string): DirSize | null {
    let c = this.copies.get(key);
    if (!c) {
      if (this.copies.size >= MAX_COPIES) return null;
      c = { bytes: 0, mtime: 0 };
      this.copies.set(key, c);
    }
    return c;
  }
}
