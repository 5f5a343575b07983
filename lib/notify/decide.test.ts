import { describe, expect, it } from "vitest";
import { changes, currentNotices, DEFAULT_THRESHOLDS, type WorkspaceFacts } from "./decide";

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
