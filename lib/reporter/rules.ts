// Compiled category and session rules, fast enough to run on every entry of a large tree: a rule is split
// into a test on the parent folder (evaluated once per folder and cached) and a test on the entry's name.

import { globSource, type CategoryRule, type SessionRule } from "@/lib/catalog/agents";
import type { Category } from "@/lib/report-format/constants";
import type { NameNeed, Needs } from "./native-sums";

/**
 * A test on an entry's name, as data so the hot loop needs no closure calls: 0 any, 1 equal, 2 suffix, 3 regex.
 * `pre` and `suf`: what every name it matches starts and ends with (for the native scanner's sums).
 */
type NameTest = { t: 0 | 1 | 2 | 3; s: string; re: RegExp | null; pre: string; suf: string };

/**
 * A test on the parent folder, as data: 0 any folder, 1 exactly `s`, 2 `s` or inside it, 3 some segment is
 * one of `segs` (a glob like `**` + `/logs/**`), 4 a regex. Only the last is a regex: most folders are
 * settled with a comparison or two. `depth`: the segments of every folder it can match, or -1 (any depth).
 * `base`: for a test of the form `X/**` whose X has a fixed depth, that depth (folders below it are inside
 * or outside X as their parent is), else -1.
 */
type DirTest = { k: 0 | 1 | 2 | 3 | 4; s: string; segs: string[]; re: RegExp | null; depth: number; base: number };

type Pair<T> = NameTest & { dir: DirTest; value: T };

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

const GLOB_CHARS = /[*?[\]\\{}]/;

function nameTests(glob: string): NameTest[] {
  const out: NameTest[] = [];
  for (const g of expandBraces(glob)) {
    if (g === "*" || g === "**") out.push({ t: 0, s: "", re: null, pre: "", suf: "" });
    else if (!GLOB_CHARS.test(g)) out.push({ t: 1, s: g, re: null, pre: g, suf: "" });
    else {
      const suffix = /^\*([^*?[\]\\/{}]+)$/.exec(g);
      if (suffix) out.push({ t: 2, s: suffix[1], re: null, pre: "", suf: suffix[1] });
      else {
        // the literal text before the first glob character and after the last one
        const first = g.search(GLOB_CHARS);
        let last = g.length - 1;
        while (!GLOB_CHARS.test(g[last])) last--;
        const re = new RegExp("^" + globSource(g) + "$");
        out.push({ t: 3, s: "", re, pre: g.slice(0, first), suf: g.slice(last + 1) });
      }
    }
  }
  return out;
}

/**
 * The rules that apply in one folder, compiled: consecutive tests of one kind become one group (a Map for
 * exact names, suffixes indexed by their last character), keeping the first-match-wins order.
 */
export type Group<T> =
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

/** What testName gives for a name no test but "any name" matches (the native scanner's sums). */
export function groupDefault<T>(groups: Group<T>[]): T | null {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (g.k === 0) return g.value;
  }
  return null;
}

export function testName<T>(groups: Group<T>[], name: string): T | null {
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

function dirTest(dirGlob: string): DirTest {
  // alternatives ({a,b/c}) may differ in depth
  const depth = /\*\*|\{/.test(dirGlob) ? -1 : dirGlob === "" ? 0 : dirGlob.split("/").length;
  const under = dirGlob.endsWith("/**") ? dirGlob.slice(0, -3) : null;
  const base = under !== null && !/\*\*|\{/.test(under) ? under.split("/").length : -1;
  const t = (k: DirTest["k"], s = "", segs: string[] = [], re: RegExp | null = null): DirTest => ({
    k,
    s,
    segs,
    re,
    depth,
    base,
  });
  if (dirGlob === "**") return t(0);
  if (!GLOB_CHARS.test(dirGlob)) return t(1, dirGlob);
  if (under !== null) {
    if (!GLOB_CHARS.test(under)) return t(2, under);
    if (under.startsWith("**/")) {
      const segs = expandBraces(under.slice(3));
      if (segs.every((x) => x !== "" && !x.includes("/") && !GLOB_CHARS.test(x))) return t(3, "", segs);
    }
    return t(4, "", [], new RegExp("^" + globSource(under) + "(?:/.*)?$"));
  }
  return t(4, "", [], new RegExp("^" + globSource(dirGlob) + "$"));
}

/** Whether one of the "/"-separated segments of `path` is `seg`. */
function hasSegment(path: string, seg: string): boolean {
  for (let at = path.indexOf(seg); at >= 0; at = path.indexOf(seg, at + 1)) {
    const after = at + seg.length;
    if ((at === 0 || path.charCodeAt(at - 1) === 47) && (after === path.length || path.charCodeAt(after) === 47))
      return true;
  }
  return false;
}

function testDir(d: DirTest, parent: string): boolean {
  switch (d.k) {
    case 0:
      return true;
    case 1:
      return parent === d.s;
    case 2:
      return (
        parent === d.s || (parent.length > d.s.length && parent.charCodeAt(d.s.length) === 47 && parent.startsWith(d.s))
      );
    case 3:
      for (let i = 0; i < d.segs.length; i++) if (hasSegment(parent, d.segs[i])) return true;
      return false;
    default:
      return d.re!.test(parent);
  }
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
      ...nameTests("*").map((n) => ({ dir: dirTest(glob), ...n, value })),
      ...nameTests(pname).map((n) => ({ dir: dirTest(pdir), ...n, value })),
    ];
  }
  return nameTests(last).map((n) => ({ dir: dirTest(dir), ...n, value }));
}

/**
 * The rules that can apply in a folder, compiled: each distinct set once (folders mostly share the same
 * applicable rules). A pair whose folder test has a fixed depth is tested only in folders of that depth: most
 * folders are settled without running a regex. Sets are found by which pairs apply: 30 pairs to a small
 * integer (larger numbers would be number objects, allocated per folder), two of them for up to 60 pairs, a
 * string of 0/1 beyond.
 */
class RuleSets<T> {
  private readonly compiled = new Map<number, Map<number, Group<T>[]>>();
  private readonly compiledWide = new Map<string, Group<T>[]>();
  /** Per pair, the depth of the folders its folder test can match (segments), or -1 for any depth. */
  private readonly depths: number[];
  /**
   * A folder deeper than `below`, not named one of `specials`, has its parent's rules: a folder differs from
   * its parent where a test of fixed depth applies to it or to its parent, where it is the X of an `X/**`
   * test, or where it is named as a segment test names (Infinity: a regex on any depth).
   */
  readonly below: number;
  readonly specials: ReadonlySet<string>;
  constructor(private readonly pairs: Pair<T>[]) {
    this.depths = pairs.map((p) => p.dir.depth);
    let below = 0;
    const specials = new Set<string>();
    for (const { dir: d } of pairs) {
      if (d.depth >= 0) below = Math.max(below, d.depth + 1);
      else if (d.base >= 0) below = Math.max(below, d.base);
      else if (d.k === 3) for (const seg of d.segs) specials.add(seg);
      else if (d.k === 4) below = Infinity;
    }
    this.below = below;
    this.specials = specials;
  }

  /** Whether the folder `name`, `depth` segments deep, has its parent's rules (`below`). */
  inherits(depth: number, name: string): boolean {
    return depth > this.below && (this.specials.size === 0 || !this.specials.has(name));
  }

  /** The compiled tests for the entries of folder `parent` (relative to the root, `depth` segments). */
  compute(parent: string, depth: number): Group<T>[] {
    const n = this.pairs.length;
    if (n > 60) {
      let mask = "";
      for (let i = 0; i < n; i++) mask += this.applies(i, parent, depth) ? "1" : "0";
      let list = this.compiledWide.get(mask);
      if (!list) this.compiledWide.set(mask, (list = compile(this.pairs.filter((_, i) => mask[i] === "1"))));
      return list;
    }
    const lo = this.bits(parent, depth, 0, Math.min(n, 30));
    const hi = n > 30 ? this.bits(parent, depth, 30, n) : 0;
    let byLo = this.compiled.get(hi);
    if (!byLo) this.compiled.set(hi, (byLo = new Map()));
    let list = byLo.get(lo);
    if (!list) {
      const on = (i: number) => ((i < 30 ? lo >> i : hi >> (i - 30)) & 1) === 1;
      byLo.set(lo, (list = compile(this.pairs.filter((_, i) => on(i)))));
    }
    return list;
  }

  /** Which of the pairs from..to (at most 30) apply in `parent`, as bits. */
  private bits(parent: string, depth: number, from: number, to: number): number {
    let m = 0;
    for (let i = from; i < to; i++) if (this.applies(i, parent, depth)) m |= 1 << (i - from);
    return m;
  }

  /**
   * What these rules need of the native scanner's sums: the names that may match (`all`: also those matched
   * by any name, where a match needs the entry's own path), and how deep folders may differ in the rules that
   * apply to them.
   */
  needs(all: boolean, kind: NameNeed["kind"]): Needs {
    const names: NameNeed[] = [];
    for (const p of this.pairs)
      if (p.t !== 0 || all) names.push({ depth: p.dir.depth, kind, pre: p.pre, suf: p.suf, has: "" });
    return { names, foldBelow: this.below, specials: [...this.specials] };
  }

  private applies(i: number, parent: string, depth: number): boolean {
    const d = this.depths[i];
    return (d < 0 || d === depth) && testDir(this.pairs[i].dir, parent);
  }
}

export class CategoryMatcher {
  private sets: RuleSets<Category>;
  constructor(rules: readonly CategoryRule[]) {
    this.sets = new RuleSets(rules.flatMap((r) => pairsOf(r.glob, r.category)));
  }
  /**
   * The compiled tests for the entries of folder `parent` (relative to the root, `depth` segments; use with
   * testName; no match is "other").
   */
  groupsFor(parent: string, depth: number): Group<Category>[] {
    return this.sets.compute(parent, depth);
  }
  /** A category needs no name where it is the folder's default (groupDefault). */
  needs(): Needs {
    return this.sets.needs(false, "a");
  }
  /** Whether the folder `name`, `depth` segments deep, has its parent's groups. */
  inherits(depth: number, name: string): boolean {
    return this.sets.inherits(depth, name);
  }
}

/** Entries matching one glob, tested like the category rules (folder part once per folder, then the name). */
export class GlobMatcher {
  private sets: RuleSets<true>;
  constructor(glob: string) {
    // a lone "**" is everything at any depth (pairsOf reads "X/**" forms only)
    this.sets = new RuleSets(pairsOf(glob === "**" ? "**/*" : glob, true as const));
  }
  /** The tests for the entries of folder `parent` (`depth` segments), or null when no entry there can match. */
  groupsFor(parent: string, depth: number): Group<true>[] | null {
    const g = this.sets.compute(parent, depth);
    return g.length ? g : null;
  }
  needs(all: boolean, kind: NameNeed["kind"]): Needs {
    return this.sets.needs(all, kind);
  }
  inherits(depth: number, name: string): boolean {
    return this.sets.inherits(depth, name);
  }
}

export type SessionUnitKind = SessionRule["unit"];

/** A session unit that is a folder at a fixed depth. */
export type FolderUnit = {
  depth: number;
  re: RegExp;
  kind: "file+dir" | "dir";
};

/** Session rules: which files are sessions, and at which depth session folders sit. */
export class SessionMatcher {
  private fileSets: RuleSets<SessionUnitKind>;
  /** Fixed-depth folder units: depth (segments) and the regex on the folder's relative path. */
  readonly folderUnits: FolderUnit[] = [];
  readonly empty: boolean;

  constructor(rules: readonly SessionRule[]) {
    this.empty = rules.length === 0;
    this.fileSets = new RuleSets(rules.filter((r) => r.unit !== "dir").flatMap((r) => pairsOf(r.glob, r.unit)));
    for (const r of rules) {
      if (r.unit === "file") continue;
      if (r.glob.includes("**")) throw new Error(`session rule ${r.glob}: "${r.unit}" units need a fixed depth`);
      const depth = r.glob.split("/").length;
      if (r.unit === "dir")
        this.folderUnits.push({ depth, re: new RegExp("^" + globSource(r.glob) + "$"), kind: "dir" });
      else {
        // the companion folder sits beside the file: same parent, any name
        const [dir] = splitLast(r.glob);
        const src = dir === "" ? "[^/]+" : globSource(dir) + "/[^/]+";
        this.folderUnits.push({ depth, re: new RegExp("^" + src + "$"), kind: "file+dir" });
      }
    }
  }

  /** The compiled session-file tests for the entries of folder `parent` (`depth` segments; use with testName). */
  groupsFor(parent: string, depth: number): Group<SessionUnitKind>[] {
    return this.fileSets.compute(parent, depth);
  }

  /** Whether the folder `name`, `depth` segments deep, has its parent's session-file groups. */
  inherits(depth: number, name: string): boolean {
    return this.fileSets.inherits(depth, name);
  }

  /** A session file is listed by its path, and a unit folder sized by its own: both need every name. */
  needs(): Needs {
    const out = this.fileSets.needs(true, "f");
    for (const fu of this.folderUnits) {
      out.names.push({ depth: fu.depth - 1, kind: "d", pre: "", suf: "", has: "" });
      out.foldBelow = Math.max(out.foldBelow, fu.depth);
    }
    return out;
  }
}
