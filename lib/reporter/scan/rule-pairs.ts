// A rule's glob split for the hot loop: a test on the entry's parent folder (run once per folder) and a test on
// the entry's name, each as data of a kind that settles most entries with a comparison or two.

import { Glob, type PathTest } from "@/lib/catalog/globs";

/**
 * A test on an entry's name, as data so the hot loop needs no closure calls: any name, one exact name (`s`), a
 * suffix (`s`), or a compiled glob (kind "regex", its name from when it was one). `pre` and `suf`: what every name
 * it matches starts and ends with (for the native scanner's sums).
 */
type NameTest = {
  kind: "any" | "exact" | "suffix" | "regex";
  s: string;
  re: PathTest | null;
  pre: string;
  suf: string;
};

/**
 * A test on the parent folder, as data: any folder, exactly `s`, `s` or inside it ("under"), some segment is one
 * of `segs` (a glob like `**` + `/logs/**`), or a compiled glob. Only the last runs an automaton: most folders are
 * settled with a comparison or two. `depth`: the segments of every folder it can match, or -1 (any depth). `base`: for a test of
 * the form `X/**` whose X has a fixed depth, that depth (folders below it are inside or outside X as their parent
 * is), else -1.
 */
type DirTest = {
  kind: "any" | "exact" | "under" | "segment" | "regex";
  s: string;
  segs: string[];
  re: PathTest | null;
  depth: number;
  base: number;
};

/** One test of a rule: on the folder, then on the name, and the rule's value where both pass. */
export type Pair<T> = NameTest & { dir: DirTest; value: T };

/** Expands the first-level {a,b} alternatives of a glob ("*.{db,sqlite}" → ["*.db", "*.sqlite"]). */
function expandBraces(glob: string): string[] {
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

/**
 * Compiled once a run per glob: every root of a kind has the same rules (a home with 50 module folders compiled
 * each module's globs 50 times, a tenth of the run there). Shared safely: the tests are never changed, and a Glob's
 * scratch state lives only within one synchronous test.
 */
function memo<T>(compile: (glob: string) => T): (glob: string) => T {
  const done = new Map<string, T>();
  return (glob) => {
    let t = done.get(glob);
    if (t === undefined) done.set(glob, (t = compile(glob)));
    return t;
  };
}

const nameTests = memo((glob: string): NameTest[] => {
  const out: NameTest[] = [];
  for (const g of expandBraces(glob)) {
    if (g === "*" || g === "**") out.push({ kind: "any", s: "", re: null, pre: "", suf: "" });
    else if (!GLOB_CHARS.test(g)) out.push({ kind: "exact", s: g, re: null, pre: g, suf: "" });
    else {
      const suffix = /^\*([^*?[\]\\/{}]+)$/.exec(g);
      if (suffix) out.push({ kind: "suffix", s: suffix[1], re: null, pre: "", suf: suffix[1] });
      else {
        // the literal text before the first glob character and after the last one
        const first = g.search(GLOB_CHARS);
        let last = g.length - 1;
        while (!GLOB_CHARS.test(g[last])) last--;
        const re = new Glob(g);
        out.push({ kind: "regex", s: "", re, pre: g.slice(0, first), suf: g.slice(last + 1) });
      }
    }
  }
  return out;
});

const dirTest = memo((dirGlob: string): DirTest => {
  // alternatives ({a,b/c}) may differ in depth
  const depth = /\*\*|\{/.test(dirGlob) ? -1 : dirGlob === "" ? 0 : dirGlob.split("/").length;
  const under = dirGlob.endsWith("/**") ? dirGlob.slice(0, -3) : null;
  const base = under !== null && !/\*\*|\{/.test(under) ? under.split("/").length : -1;
  const t = (kind: DirTest["kind"], s = "", segs: string[] = [], re: PathTest | null = null): DirTest => ({
    kind,
    s,
    segs,
    re,
    depth,
    base,
  });
  if (dirGlob === "**") return t("any");
  if (!GLOB_CHARS.test(dirGlob)) return t("exact", dirGlob);
  if (under !== null) {
    if (!GLOB_CHARS.test(under)) return t("under", under);
    if (under.startsWith("**/")) {
      const segs = expandBraces(under.slice(3));
      if (segs.every((x) => x !== "" && !x.includes("/") && !GLOB_CHARS.test(x))) return t("segment", "", segs);
    }
    return t("regex", "", [], new Glob(under, "inside"));
  }
  return t("regex", "", [], new Glob(dirGlob));
});

/** Whether one of the "/"-separated segments of `path` is `seg`. */
function hasSegment(path: string, seg: string): boolean {
  for (let at = path.indexOf(seg); at >= 0; at = path.indexOf(seg, at + 1)) {
    const after = at + seg.length;
    if ((at === 0 || path.charCodeAt(at - 1) === 47) && (after === path.length || path.charCodeAt(after) === 47))
      return true;
  }
  return false;
}

/** Whether the folder `parent` (relative to the root) passes `d`. */
export function testDir(d: DirTest, parent: string): boolean {
  switch (d.kind) {
    case "any":
      return true;
    case "exact":
      return parent === d.s;
    case "under":
      return (
        parent === d.s || (parent.length > d.s.length && parent.charCodeAt(d.s.length) === 47 && parent.startsWith(d.s))
      );
    case "segment":
      for (let i = 0; i < d.segs.length; i++) if (hasSegment(parent, d.segs[i])) return true;
      return false;
    default:
      return d.re!.test(parent);
  }
}

/** A glob's folder part and its last segment ("" and the glob when it has no "/"). */
export function splitLast(glob: string): [string, string] {
  const i = glob.lastIndexOf("/");
  return i < 0 ? ["", glob] : [glob.slice(0, i), glob.slice(i + 1)];
}

/** The tests of one rule's glob, each carrying `value`. */
export function pairsOf<T>(glob: string, value: T): Pair<T>[] {
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
