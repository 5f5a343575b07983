// Compiled category and session rules, fast enough to run on every entry of a large tree: a rule is split
// into a test on the parent folder (evaluated once per folder and cached) and a test on the entry's name.

import { globSource, type CategoryRule, type SessionRule } from "@/lib/catalog/agents";
import type { Category } from "@/lib/report/constants";

/** A test on an entry's name, as data so the hot loop needs no closure calls: 0 any, 1 equal, 2 suffix, 3 regex. */
type NameTest = { t: 0 | 1 | 2 | 3; s: string; re: RegExp | null };

type Pair<T> = { dir: RegExp; t: 0 | 1 | 2 | 3; s: string; re: RegExp | null; value: T };

/** Expands the first-level {a,b} alternatives of a glob ("*.{db,sqlite}" → ["*.db", "*.sqlite"]). */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open < 0) return [glob];
  const close = glob.indexOf("}", open);
  if (close < 0) return [glob];
  const head = glob.slice(0, open);
  const tail = glob.slice(close + 1);
  return glob
    .slice(open + 1, close)
    .split(",")
    .flatMap((alt) => expandBraces(head + alt + tail));
}

function nameTests(glob: string): NameTest[] {
  const out: NameTest[] = [];
  for (const g of expandBraces(glob)) {
    if (g === "*" || g === "**") out.push({ t: 0, s: "", re: null });
    else if (!/[*?[\]\\{}]/.test(g)) out.push({ t: 1, s: g, re: null });
    else {
      const suffix = /^\*([^*?[\]\\/{}]+)$/.exec(g);
      if (suffix) out.push({ t: 2, s: suffix[1], re: null });
      else out.push({ t: 3, s: "", re: new RegExp("^" + globSource(g) + "$") });
    }
  }
  return out;
}

/**
 * The rules that apply in one folder, compiled: consecutive tests of one kind become one group (a Map for
 * exact names, suffixes indexed by their last character), keeping the first-match-wins order.
 */
type Group<T> =
  | { k: 0; value: T }
  | { k: 1; map: Map<string, T> }
  | { k: 2; byLast: Map<number, { s: string; value: T }[]> }
  | { k: 3; re: RegExp; value: T };

function compile<T>(pairs: Pair<T>[]): Group<T>[] {
  const out: Group<T>[] = [];
  for (const p of pairs) {
    const last = out[out.length - 1];
    if (p.t === 0) {
      out.push({ k: 0, value: p.value });
      break; // nothing after a match-all can match first
    } else if (p.t === 1) {
      if (last?.k === 1) {
        if (!last.map.has(p.s)) last.map.set(p.s, p.value);
      } else out.push({ k: 1, map: new Map([[p.s, p.value]]) });
    } else if (p.t === 2) {
      const g = last?.k === 2 ? last : (out[out.push({ k: 2, byLast: new Map() }) - 1] as Extract<Group<T>, { k: 2 }>);
      const c = p.s.charCodeAt(p.s.length - 1);
      const list = g.byLast.get(c) ?? [];
      list.push({ s: p.s, value: p.value });
      g.byLast.set(c, list);
    } else out.push({ k: 3, re: p.re!, value: p.value });
  }
  return out;
}

function testName<T>(groups: Group<T>[], name: string): T | null {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    switch (g.k) {
      case 0:
        return g.value;
      case 1: {
        const v = g.map.get(name);
        if (v !== undefined) return v;
        break;
      }
      case 2: {
        const list = g.byLast.get(name.charCodeAt(name.length - 1));
        if (list) for (let j = 0; j < list.length; j++) if (name.endsWith(list[j].s)) return list[j].value;
        break;
      }
      default:
        if (g.re.test(name)) return g.value;
    }
  }
  return null;
}

function dirRegex(dirGlob: string): RegExp {
  if (dirGlob === "") return /^$/;
  if (dirGlob === "**") return /^.*$/;
  if (dirGlob.endsWith("/**")) return new RegExp("^" + globSource(dirGlob.slice(0, -3)) + "(?:/.*)?$");
  return new RegExp("^" + globSource(dirGlob) + "$");
}

function splitLast(glob: string): [string, string] {
  const i = glob.lastIndexOf("/");
  return i < 0 ? ["", glob] : [glob.slice(0, i), glob.slice(i + 1)];
}

function pairsOf<T>(glob: string, value: T): Pair<T>[] {
  const [dir, last] = splitLast(glob);
  if (last === "**" && dir !== "") {
    // "X/**": everything under X, and X itself.
    const [pdir, pname] = splitLast(dir);
    return [
      ...nameTests("*").map((n) => ({ dir: dirRegex(glob), ...n, value })),
      ...nameTests(pname).map((n) => ({ dir: dirRegex(pdir), ...n, value })),
    ];
  }
  return nameTests(last).map((n) => ({ dir: dirRegex(dir), ...n, value }));
}

/** A per-parent-folder cache of which rules can apply to its children. */
class ParentCache<T> {
  private lastParent: string | null = null;
  private lastList: Group<T>[] = [];
  private map = new Map<string, Group<T>[]>();
  private compiled = new Map<string, Group<T>[]>();
  constructor(private readonly pairs: Pair<T>[]) {}

  forParent(parent: string): Group<T>[] {
    if (parent === this.lastParent) return this.lastList;
    let list = this.map.get(parent);
    if (!list) {
      // Folders mostly share the same applicable rules: compile each distinct set once.
      let mask = "";
      for (let i = 0; i < this.pairs.length; i++) mask += this.pairs[i].dir.test(parent) ? "1" : "0";
      list = this.compiled.get(mask);
      if (!list) {
        list = compile(this.pairs.filter((_, i) => mask[i] === "1"));
        this.compiled.set(mask, list);
      }
      if (this.map.size >= 1024) this.map.clear(); // bounded memory
      this.map.set(parent, list);
    }
    this.lastParent = parent;
    this.lastList = list;
    return list;
  }
}

export class CategoryMatcher {
  private cache: ParentCache<Category>;
  constructor(rules: readonly CategoryRule[]) {
    this.cache = new ParentCache(rules.flatMap((r) => pairsOf(r.glob, r.category)));
  }
  /** Category of the entry `name` inside folder `parent` (both relative to the root, "" for the root). */
  categoryOf(parent: string, name: string): Category {
    return testName(this.cache.forParent(parent), name) ?? "other";
  }
}

export type SessionUnitKind = SessionRule["unit"];

/** A session unit that is a folder at a fixed depth, with a one-entry cache of the last prefix seen. */
export type FolderUnit = {
  depth: number;
  re: RegExp;
  kind: "file+dir" | "dir";
  lastPrefix: string | null;
  lastMatch: boolean;
  lastUnit: { bytes: number; mtime: number } | null;
};

/** Session rules: which files are sessions, and at which depth session folders sit. */
export class SessionMatcher {
  private fileCache: ParentCache<SessionUnitKind>;
  /** Fixed-depth folder units: depth (segments) and the regex on the folder's relative path. */
  readonly folderUnits: FolderUnit[] = [];
  readonly empty: boolean;

  constructor(rules: readonly SessionRule[]) {
    this.empty = rules.length === 0;
    this.fileCache = new ParentCache(
      rules.filter((r) => r.unit !== "dir").flatMap((r) => pairsOf(r.glob, r.unit)),
    );
    for (const r of rules) {
      if (r.unit === "file") continue;
      if (r.glob.includes("**")) throw new Error(`session rule ${r.glob}: "${r.unit}" units need a fixed depth`);
      const depth = r.glob.split("/").length;
      if (r.unit === "dir") this.folderUnits.push({ depth, re: new RegExp("^" + globSource(r.glob) + "$"), kind: "dir", lastPrefix: null, lastMatch: false, lastUnit: null });
      else {
        // the companion folder sits beside the file: same parent, any name
        const [dir] = splitLast(r.glob);
        const src = dir === "" ? "[^/]+" : globSource(dir) + "/[^/]+";
        this.folderUnits.push({ depth, re: new RegExp("^" + src + "$"), kind: "file+dir", lastPrefix: null, lastMatch: false, lastUnit: null });
      }
    }
  }

  /** The unit kind when the file `name` in `parent` is a session file, else null. */
  fileUnit(parent: string, name: string): SessionUnitKind | null {
    return testName(this.fileCache.forParent(parent), name);
  }
}
