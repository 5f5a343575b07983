import { describe, expect, it } from "vitest";
import { matchGlob } from "@/lib/catalog/agents";
import { GlobMatcher, testName } from "./rules";

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
        const slash = path.lastIndexOf("/");
        const parent = slash < 0 ? "" : path.slice(0, slash);
        const depth = parent === "" ? 0 : parent.split("/").length;
        const groups = m.groupsFor(parent, depth);
        const hit = groups !== null && testName(groups, path.slice(slash + 1)) === true;
        expect({ glob, path, hit }).toEqual({ glob, path, hit: matchGlob(glob, path) });
      }
    }
  });
});
