import { describe, expect, it } from "vitest";
import type { CategoryRule } from "@/lib/catalog/agents";
import { categoryOf, matchGlob } from "@/lib/catalog/globs";
import { CATEGORIES } from "@/lib/report-format/constants";
import type { NameNeed, Needs } from "./native-sums";
import { groupDefault, testName, type Group } from "./rule-groups";
import { CategoryMatcher, GlobMatcher } from "./rules";

const GLOBS = [
  "projects/*/*.jsonl",
  "projects/**",
  "history.jsonl",
  "**/*.{db,sqlite}",
  "**/{cache,node_modules}/**",
  "tmp/*/chats/session-*",
  "sessions/*/*/*/rollout-*",
  // alternatives of different depths: the folder test cannot be tied to one depth
  "{a,b/c}/*.log",
  "x/{y,y/z}/f",
];

/** The folder and name of a path, and the folder's depth. */
function split(path: string) {
  const slash = path.lastIndexOf("/");
  const parent = slash < 0 ? "" : path.slice(0, slash);
  return { parent, name: path.slice(slash + 1), depth: parent === "" ? 0 : parent.split("/").length };
}

const PATHS = [
  "history.jsonl",
  "projects/p/s.jsonl",
  "projects/p/s/sub/a.jsonl",
  "projects",
  "a/x.log",
  "b/c/x.log",
  "b/x.log",
  "x/y/f",
  "x/y/z/f",
  "deep/er/node_modules/m/index.js",
  "cache",
  "q/state.db",
  "tmp/h/chats/session-1.json",
  "sessions/2026/11/26/rollout-1.jsonl",
  "sessions/2026/11/rollout-1.jsonl",
];

describe("compiled rules", () => {
  it("match what the glob matches, folder test once per folder and name test per entry", () => {
    for (const glob of GLOBS) {
      const m = new GlobMatcher(glob);
      for (const path of PATHS) {
        const { parent, name, depth } = split(path);
        const groups = m.groupsFor(parent, depth);
        const hit = groups !== null && testName(groups, name) === true;
        expect({ glob, path, hit }).toEqual({ glob, path, hit: matchGlob(glob, path) });
      }
    }
  });

  it("give each entry the first matching rule's category, however many rules there are (sets of 30, 60, more)", () => {
    for (const count of [5, 31, 61, 90]) {
      // the globs above, then one of a kind per rule: a folder of its own, a depth-tied folder, a suffix
      const rules: CategoryRule[] = Array.from({ length: count }, (_, i) => ({
        glob: i < GLOBS.length ? GLOBS[i] : [`d${i}/**`, `x/{y,d${i}}/*`, `**/*.e${i}`][i % 3],
        category: CATEGORIES[i % CATEGORIES.length],
      }));
      const m = new CategoryMatcher(rules);
      const paths = [
        ...PATHS,
        ...Array.from({ length: count }, (_, i) => [`d${i}/f`, `x/d${i}/f`, `q/r.e${i}`][i % 3]),
      ];
      for (const path of paths) {
        const { parent, name, depth } = split(path);
        const got = testName(m.groupsFor(parent, depth), name) ?? "other";
        expect({ count, path, got }).toEqual({ count, path, got: categoryOf(rules, path) });
      }
    }
  });

  it("tell the native scanner every name that may test apart from its folder's default, and how deep folders stay alike", () => {
    const covered = (n: NameNeed, depth: number, isDir: boolean, name: string) =>
      (n.depth < 0 || n.depth === depth) &&
      (n.kind === "a" || (n.kind === "d") === isDir) &&
      name.length >= n.pre.length + n.suf.length &&
      name.startsWith(n.pre) &&
      name.endsWith(n.suf) &&
      name.includes(n.has);
    const NONE: Group<unknown>[] = [];
    const paths = [...PATHS, ...PATHS.map((p) => p.replace(/\/[^/]+$/, "/deeper/still/x.log"))];
    for (const glob of GLOBS) {
      const m = new GlobMatcher(glob);
      const cat = new CategoryMatcher([{ glob, category: "logs" }]);
      const cases: [Needs, (p: string, d: number) => Group<unknown>[]][] = [
        [m.needs(false, "a"), (p, d) => m.groupsFor(p, d) ?? NONE],
        [cat.needs(), (p, d) => cat.groupsFor(p, d)],
      ];
      for (const [needs, groupsFor] of cases) {
        for (const path of paths) {
          const { parent, name, depth } = split(path);
          const groups = groupsFor(parent, depth);
          // a name that tests apart from the default is one the scanner prints
          if (testName(groups, name) !== groupDefault(groups))
            expect({ glob, path, covered: needs.names.some((n) => covered(n, depth, false, name)) }).toEqual({
              glob,
              path,
              covered: true,
            });
          // a folder deeper than foldBelow, not a special, has its parent's rules
          if (depth > needs.foldBelow && !needs.specials.includes(parent.slice(parent.lastIndexOf("/") + 1))) {
            const up = split(parent);
            expect({ glob, path, same: groupsFor(parent, depth) === groupsFor(up.parent, up.depth) }).toEqual({
              glob,
              path,
              same: true,
            });
          }
        }
      }
    }
  });
});
