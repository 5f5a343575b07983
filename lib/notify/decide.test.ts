import { describe, expect, it } from "vitest";
import { changes, currentNotices, DEFAULT_THRESHOLDS, type WorkspaceFacts } from "./decide";
import { cleanupAheadNotice, type PlannedCleanup } from "./decide-cleanup";

const NOW = new Date("2026-11-20T10:00:00Z");
const DAY = 86_400_000;

const facts = (over: Partial<WorkspaceFacts> = {}): WorkspaceFacts => ({
  id: "ws-1",
  name: "dev",
  owner: "alice",
  usedPct: 40,
  forecastFullAt: null,
  writesFailedNoSpace: false,
  lostAtRestart: [],
  causes: [{ agent: "claude-code", path: ".claude", bytes: 5e9 }],
  grownFiles: [],
  bestRecipe: { recipeId: "claude-code-sessions", title: "Old Claude Code sessions", bytes: 3e9 },
  ...over,
});

const decide = (over: Partial<WorkspaceFacts>) => currentNotices(facts(over), DEFAULT_THRESHOLDS, NOW);

describe("currentNotices", () => {
  it("says nothing of a healthy workspace", () => {
    expect(decide({})).toEqual([]);
  });

  it("tells a volume filling within 7 days, sooner as worse, with the recipe that frees the most", () => {
    const in5 = decide({ forecastFullAt: new Date(NOW.getTime() + 5 * DAY) });
    expect(in5).toMatchObject([{ kind: "filling", stateKey: "filling:7", level: 1, figure: "full in 5 days" }]);
    expect(in5[0].action).toEqual({
      type: "recipe",
      recipeId: "claude-code-sessions",
      title: "Old Claude Code sessions",
      bytes: 3e9,
    });
    expect(decide({ forecastFullAt: new Date(NOW.getTime() + 2 * DAY) })[0]).toMatchObject({
      stateKey: "filling:3",
      level: 2,
    });
    expect(decide({ forecastFullAt: new Date(NOW.getTime() + 3600_000) })[0]).toMatchObject({
      stateKey: "filling:1",
      level: 3,
      figure: "full in 1 day",
    });
    expect(decide({ forecastFullAt: new Date(NOW.getTime() + 8 * DAY) })).toEqual([]);
  });

  it("tells a full volume (by use or by the reporter's failed writes), not also as filling", () => {
    const atFull = decide({ usedPct: 96, forecastFullAt: new Date(NOW.getTime() + DAY) });
    expect(atFull.map((n) => [n.kind, n.stateKey, n.figure])).toEqual([["full", "full", "96 % used"]]);
    expect(decide({ usedPct: 60, writesFailedNoSpace: true })[0]).toMatchObject({
      kind: "full",
      stateKey: "full:no-space",
      level: 2,
    });
  });

  it("asks for a bigger disk when no recipe frees anything", () => {
    expect(decide({ usedPct: 99, bestRecipe: null })[0].action).toEqual({ type: "grow-disk" });
  });

  it("tells the folders a restart loses, one state per set of folders", () => {
    const a = decide({ lostAtRestart: [".codex", ".claude"] });
    const b = decide({ lostAtRestart: [".claude", ".codex"] });
    expect(a[0]).toMatchObject({ kind: "lost-at-restart", action: { type: "persist", paths: [".claude", ".codex"] } });
    expect(a[0].stateKey).toBe(b[0].stateKey);
    expect(decide({ lostAtRestart: [".claude"] })[0].stateKey).not.toBe(a[0].stateKey);
  });
});

describe("growing file", () => {
  const GiB = 1024 ** 3;
  const grown = (path: string, growth: number) => ({ agent: "claude-code", path, bytes: 9 * GiB, growth });

  it("tells a file that grew by more than the threshold, naming it and what it grew by; worse at each doubling", () => {
    expect(decide({ grownFiles: [grown(".claude/a.jsonl", GiB)] })).toEqual([]);
    const [n] = decide({ grownFiles: [grown(".claude/a.jsonl", 1.5 * GiB), grown(".claude/b.log", 1.2 * GiB)] });
    expect(n).toMatchObject({
      kind: "growing-file",
      level: 1,
      figure: ".claude/a.jsonl grew by 1.5 GiB in a day (and 1 more)",
      causes: [
        { agent: "claude-code", path: ".claude/a.jsonl", bytes: 9 * GiB },
        { agent: "claude-code", path: ".claude/b.log", bytes: 9 * GiB },
      ],
      action: { type: "recipe", recipeId: "claude-code-sessions" },
    });
    expect(decide({ grownFiles: [grown(".claude/a.jsonl", 3 * GiB)] })[0]).toMatchObject({ level: 2 });
    expect(decide({ grownFiles: [grown(".claude/a.jsonl", 100 * GiB)] })[0]).toMatchObject({ level: 4 });
    const other = decide({ grownFiles: [grown(".claude/c.jsonl", 1.5 * GiB)] })[0];
    expect(other.stateKey).not.toBe(n.stateKey);
  });
});

describe("cleanup ahead", () => {
  const plan = (policyId: string, hours: number, bytes: number): PlannedCleanup => ({
    policyId,
    policy: `policy ${policyId}`,
    what: "Old Claude Code sessions",
    at: new Date(NOW.getTime() + hours * 3_600_000),
    bytes,
    roots: [{ agent: "claude-code", path: ".claude", bytes: 5e9 }],
  });
  const ws = { id: "ws-1", name: "dev", owner: "alice" };

  it("tells the soonest run that takes something: when, what, how much, and the protect file", () => {
    const n = cleanupAheadNotice(ws, [plan("p2", 30, 1e9), plan("p1", 5, 2 * 1024 ** 3), plan("p3", 1, 0)], NOW)!;
    expect(n).toMatchObject({
      kind: "cleanup-ahead",
      stateKey: "cleanup:p1:2026-11-20T15:00:00.000Z",
      figure: 'the policy "policy p1" deletes 2 GiB of Old Claude Code sessions at 2026-11-20 15:00 UTC',
      action: { type: "protect", policy: "policy p1", at: "2026-11-20T15:00:00.000Z", paths: [".claude"] },
    });
    expect(cleanupAheadNotice(ws, [plan("p3", 1, 0)], NOW)).toBeNull();
  });

  it("leaves another decider's kinds alone", () => {
    const n = cleanupAheadNotice(ws, [plan("p1", 5, 1e9)], NOW)!;
    const told = [{ kind: "filling" as const, stateKey: "filling:7", level: 1 }];
    expect(changes([n], told, ["cleanup-ahead"])).toEqual({ send: [n], keep: [], clear: [] });
    expect(changes([], [{ kind: "cleanup-ahead", stateKey: n.stateKey, level: 1 }]).clear).toEqual([]);
  });
});

describe("changes", () => {
  const filling = (days: number) => decide({ forecastFullAt: new Date(NOW.getTime() + days * DAY) });
  const told = (ns: ReturnType<typeof decide>) => ns.map(({ kind, stateKey, level }) => ({ kind, stateKey, level }));

  it("tells a new state once, not again while it holds", () => {
    expect(changes(filling(5), []).send).toHaveLength(1);
    expect(changes(filling(5), told(filling(6)))).toEqual({ send: [], keep: [], clear: [] });
  });

  it("tells a worse state, remembers a better one silently, and forgets a cleared one", () => {
    expect(changes(filling(2), told(filling(5))).send).toHaveLength(1);
    const better = changes(filling(5), told(filling(2)));
    expect(better.send).toEqual([]);
    expect(better.keep).toHaveLength(1);
    expect(changes([], told(filling(5)))).toEqual({ send: [], keep: [], clear: ["filling"] });
  });
});
