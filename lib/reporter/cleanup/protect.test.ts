// The owner's protect file and a job's custom rule, with globs past the wildcard limit: nothing the owner meant to
// protect is deleted, and a rule that cannot be matched as written is refused.
import { describe, expect, it } from "vitest";
import { ProtectList, parseProtect, withKept } from "./protect";
import { jobTarget } from "./units";

describe("globs past the wildcard limit in the reporter", () => {
  it("protects every path while a protect glob is refused, and says why", () => {
    const list = new ProtectList(parseProtect("projects/keep/**\n*a*a*a*a*a*a*a*a*b\n"));
    expect(list.refused).toMatch(/has 9 wildcards; at most 8/);
    expect(list.empty).toBe(false);
    expect(list.covers(["anything/at/all.jsonl"])).toBe(true);
  });

  it("protects by the globs as written when all are within the limit", () => {
    const list = new ProtectList(parseProtect("projects/keep/**\n"));
    expect(list.refused).toBeNull();
    expect(list.covers(["projects/keep/a.jsonl"])).toBe(true);
    expect(list.covers(["projects/other/a.jsonl"])).toBe(false);
  });

  it("refuses a job's custom rule with too many wildcards", () => {
    const custom = { rootKey: "claude-code:data", glob: "*a*a*a*a*a*a*a*a*b", unit: "file" as const };
    expect(jobTarget({ recipe: null, custom })).toMatch(/has 9 wildcards; at most 8/);
  });
});

describe("the owner's Keeps a job carries", () => {
  it("protect the kept folder and what it holds, beside the protect file's globs", () => {
    const list = withKept(new ProtectList(parseProtect("projects/keep/**\n")), [".claude/projects/-work-app"]);
    expect(list.covers([".claude/projects/-work-app/a.jsonl"])).toBe(true);
    expect(list.covers([".claude/projects/-work-app"])).toBe(true);
    expect(list.covers(["projects/keep/a.jsonl"])).toBe(true);
    expect(list.covers([".claude/projects/-work-application/a.jsonl"])).toBe(false);
  });

  it("leave the protect list as it is when the job keeps nothing", () => {
    const list = new ProtectList([]);
    expect(withKept(list, undefined)).toBe(list);
    expect(withKept(list, [])).toBe(list);
  });
});
