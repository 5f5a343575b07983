// Globs match in linear time, as the regular expressions they were translated to before matched (the reference in
// tests/support/regex-glob.ts), and a glob with too many wildcards is refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { regexGlob } from "@/tests/support/regex-glob";
import { AGENTS } from "./agents";
import { Glob, globProblem, matchGlob, MAX_GLOB_WILDCARDS } from "./globs";
import { RECIPES } from "./recipes";

/** Every glob the catalog holds (rules, session rules, recipes), wherever it sits in the data. */
const CATALOG_GLOBS = [
  ...new Set([...JSON.stringify([AGENTS, RECIPES]).matchAll(/"glob":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1])),
];

describe("globs", () => {
  it("match the pathological glob in steps linear in the path's length", () => {
    const glob = new Glob("*a*a*a*a*a*a*a*a*b");
    for (const n of [32, 255, 4096]) {
      const count = { steps: 0 };
      expect(glob.test("a".repeat(n), count)).toBe(false);
      expect(count.steps).toBeLessThanOrEqual((n + 1) * glob.size);
    }
    expect(glob.test("xaaaaaaaayb")).toBe(true);
  });

  it("match as the regular expressions did, on the catalog's globs", () => {
    expect(CATALOG_GLOBS.length).toBeGreaterThan(50);
    for (const glob of CATALOG_GLOBS) {
      // paths made of the glob's own literal pieces, so that many match
      const pieces = glob.split(/[*?{},/]+/).filter(Boolean);
      const paths = fc.array(fc.constantFrom("x", ".", "/", ...pieces), { maxLength: 12 });
      const ours = new Glob(glob);
      const theirs = regexGlob(glob);
      fc.assert(fc.property(paths, (parts) => ours.test(parts.join("")) === theirs.test(parts.join(""))));
    }
  });

  it("match as the regular expressions did, on generated globs and paths", () => {
    const glob = fc.array(fc.constantFrom("a", "b", ".", "/", "*", "**", "?", "{", "}", ",", "{a,b}", "**/"), {
      maxLength: 10,
    });
    const path = fc.array(fc.constantFrom("a", "b", ".", "/", "ab", "{", "}", ","), { maxLength: 10 });
    fc.assert(
      fc.property(
        glob,
        path,
        (g, p) => new Glob(g.join("")).test(p.join("")) === regexGlob(g.join("")).test(p.join("")),
      ),
      { numRuns: 5000 },
    );
  });

  it("take a folder itself for a glob ending in /**, one segment below for a child's", () => {
    expect(matchGlob("a/*/**", "a/b")).toBe(true);
    expect(matchGlob("a/*/**", "a/b/c/d")).toBe(true);
    expect(matchGlob("a/*/**", "a")).toBe(false);
    expect(new Glob("a/*", "child").test("a/b/c")).toBe(true);
    expect(new Glob("a/*", "child").test("a/b/")).toBe(false);
    expect(new Glob("", "child").test("c")).toBe(true);
  });

  it("let ** cross any name, one with a line break too", () => {
    expect(matchGlob("projects/**", "projects/odd\nname/x")).toBe(true);
  });

  it(`refuse more than ${MAX_GLOB_WILDCARDS} wildcards, each *, ** and ? counting one`, () => {
    expect(globProblem("*a*a*a*a*a*a*a*a*b")).toMatch(/has 9 wildcards; at most 8/);
    expect(globProblem("**/*/*/*/*/*/*/?")).toBeNull();
    for (const glob of CATALOG_GLOBS) expect(globProblem(glob)).toBeNull();
  });
});
