// Gemini CLI sessions spread over five folders of their project folder, taken whole: the scan's unit (the
// preview's bytes and age) is what du and lstat give for its parts, with each scanner, and a job removes that
// unit, all of it, and nothing of the other sessions.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GEMINI_SESSION_PARTS } from "@/lib/catalog/recipe-data/session-parts";
import { RECIPE_AGE_STEPS_DAYS, RECIPES } from "@/lib/catalog/recipes";
import { compiledScanner, du } from "@/tests/support/reporter";
import { discoverRoots, type RootSpec } from "../scan/roots";
import { scanRoots } from "../scan/scan-roots";
import { runCleanup } from "./execute";
import { ENV, ageTree, job, put, snapshot, cleanupContext } from "@/tests/support/cleanup-fixtures";
import { GEMINI_PROJECT, OLD_SESSION_ENTRIES, OLD_SESSION_TOPS, buildGeminiData } from "@/tests/support/gemini-fixture";
import { targetProblem } from "./targets";
import { jobTarget } from "./units";
import type { FoundUnit } from "./unit-counts";

let tmp: string;
let home: string;
let native: string;
let spec: RootSpec;
const nowSec = Math.floor(Date.now() / 1000);
const OLDER_THAN_DAYS = 7;

function build() {
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home);
  buildGeminiData(
    (rel, bytes, a) => put(home, rel, bytes, a, nowSec),
    (rel, a) => ageTree(path.join(home, rel), a, nowSec),
  );
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "session-parts-")));
  home = path.join(tmp, "home");
  native = compiledScanner(tmp);
  build();
  spec = discoverRoots({ home, env: ENV(home), config: null }).find((s) => s.key === "gemini:data")!;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The newest mtime (seconds) of an entry and everything below it, as lstat gives them. */
function newest(abs: string): number {
  const st = fs.lstatSync(abs);
  let t = Math.floor(st.mtimeMs / 1000);
  if (st.isDirectory()) for (const n of fs.readdirSync(abs)) t = Math.max(t, newest(path.join(abs, n)));
  return t;
}

const inRoot = (rel: string) => path.relative(spec.rel, rel);

describe.each(["find", "node", "native"] as const)("scanner %s", (mode) => {
  let units: FoundUnit[];
  let usage: { units: number; bytes: number; byAge: [number, number][] };
  beforeAll(async () => {
    const r = await scanRoots([spec], nowSec, { mode, home, native, collect: true });
    expect(r.scanner).toBe(mode);
    units = r.found.get(spec.key)?.get("gemini-chats") ?? [];
    usage = r.roots[0].recipes!["gemini-chats"]!;
  });

  it("takes a session's chats, logs, tool outputs, temporary folders and subagents as one unit", () => {
    const old = units.find((u) => u.tops.length > 1 && u.tops[0] === inRoot(OLD_SESSION_TOPS[0]));
    expect(old?.tops).toEqual(OLD_SESSION_TOPS.map(inRoot));
    // five units: the old session, the young one, the one still logging, the twins, the other project's; the
    // orphan log is none's
    expect(units.length).toBe(5);
    expect(usage.units).toBe(5);
    const twins = units.find((u) => u.path.endsWith("-f0f0f0f0.jsonl"))!;
    expect(twins.tops.map((t) => path.basename(t))).toEqual([
      "session-2026-09-02T10-00-f0f0f0f0.jsonl",
      "session-2026-11-25T10-00-f0f0f0f0.jsonl",
      expect.stringMatching(/^session-f0f0f0f0-.*\.jsonl$/),
    ]);
    expect(Math.round((nowSec - twins.mtime) / 86_400)).toBe(2); // the younger twin's age: the job keeps both
    expect(usage.bytes).toBe(units.reduce((s, u) => s + u.bytes, 0));
  });

  it("counts each unit's bytes as du does its parts, and its age as the newest mtime of any of them", () => {
    for (const u of units) {
      const abs = u.tops.map((t) => path.join(spec.abs, t));
      const sizes = du(abs);
      const total = abs.reduce((s, a) => s + sizes.get(a)!, 0);
      expect({ path: u.path, bytes: u.bytes, mtime: u.mtime }).toEqual({
        path: u.path,
        bytes: total,
        mtime: Math.max(...abs.map(newest)),
      });
    }
  });
});

describe("a job on sessions older than 7 days", () => {
  it("removes exactly the units the preview counted older than 7 days, whole, and nothing else", async () => {
    build();
    const r = await scanRoots([spec], nowSec, { mode: "find", home, collect: true });
    const usage = r.roots[0].recipes!["gemini-chats"]!;
    const firstOlder = RECIPE_AGE_STEPS_DAYS.indexOf(OLDER_THAN_DAYS) + 1;
    const preview = usage.byAge.slice(firstOlder).reduce((s, [, b]) => s + b, 0);
    const before = snapshot(home);
    const res = await runCleanup(
      job({ recipe: "gemini-chats", params: { olderThanDays: OLDER_THAN_DAYS } }),
      cleanupContext(home, { running: ["bash"], nowSec }),
    );
    expect(res.errors).toEqual([]);
    expect(res.bytesActed).toBe(preview);
    const after = snapshot(home);
    const gone = [...before.keys()].filter((k) => !after.has(k) && !k.startsWith(".coder-modules")).sort();
    const otherProject = gone.filter((g) => !g.startsWith(GEMINI_PROJECT));
    expect(gone.filter((g) => g.startsWith(GEMINI_PROJECT))).toEqual([...OLD_SESSION_ENTRIES].sort());
    expect(otherProject.map((g) => path.basename(g))).toEqual([
      expect.stringMatching(/^session-2026-09-01T10-00-c3d4e5f6\.json$/),
      expect.stringMatching(/^session-c3d4e5f6-.*\.jsonl$/),
    ]);
  });
});

describe("a file+parts target", () => {
  it("is every built-in recipe's that has parts, and refused where shape and parts disagree", () => {
    for (const r of RECIPES)
      expect({ id: r.id, target: typeof jobTarget({ recipe: r.id, custom: null }) }).toEqual({
        id: r.id,
        target: "object",
      });
    const parts = GEMINI_SESSION_PARTS;
    expect(targetProblem({ id: "custom", unit: "file+parts", glob: "tmp/*/chats/session-*" })).toMatch(/parts/);
    expect(targetProblem({ id: "custom", unit: "file", glob: "tmp/*/chats/session-*", parts })).toMatch(/parts/);
    // the file must sit in a folder of its project folder: parts are found beside it there
    expect(targetProblem({ id: "custom", unit: "file+parts", glob: "tmp/*/session-*", parts })).toMatch(/project/);
    expect(targetProblem({ id: "custom", unit: "file+parts", glob: "tmp/*/chats/session-*", parts })).toBeNull();
  });
});
