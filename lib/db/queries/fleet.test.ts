import { differenceInMilliseconds } from "date-fns";
import { millisecondsInDay } from "date-fns/constants";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { forecastFull } from "@/tests/support/forecast-oracle";
import { getFleetOverview } from "./fleet";
import { dayAgo, GiB, MiB, seedScenario, testNow } from "@/tests/support/reports";

describeEachDatabase("getFleetOverview", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("totals the fleet from the workspaces table", async () => {
    const o = await getFleetOverview(t.current.db, { range: "7d", now });
    expect(o.total).toEqual({ bytes: 2103 * MiB, workspaces: 4, reportingWorkspaces: 3, roots: 6 });
  });

  it("builds one point per day with levels carried over days without reports", async () => {
    const o = await getFleetOverview(t.current.db, { range: "7d", now });
    expect(o.range).toMatchObject({ key: "7d", from: dayAgo(now, 6), to: dayAgo(now, 0), days: 7 });
    expect(o.series.points.map((p) => p.day)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => dayAgo(now, n)));
    expect(o.series.keys).toEqual(["claude-code", "gemini", "goose", "script-data", "modules", "codex"]);
    const before = { "claude-code": 300, codex: 20, "script-data": 5, gemini: 100, modules: 1, goose: 60 };
    const mib = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x / MiB]));
    for (const p of o.series.points.slice(0, 5)) {
      expect(mib(p.values)).toEqual(before);
      expect(p.total).toBe(486 * MiB);
    }
    expect(mib(o.series.points[5].values)).toEqual({ ...before, gemini: 500, "claude-code": 301 });
    expect(mib(o.series.points[6].values)).toEqual({ ...before, gemini: 500, "claude-code": 1537, codex: 0 });
    expect(o.series.points[6].total).toBe(2103 * MiB);
  });

  it("starts a longer range before the first report at zero and sums earlier deltas into the start", async () => {
    const o = await getFleetOverview(t.current.db, { range: "30d", now });
    expect(o.series.points).toHaveLength(30);
    expect(o.series.points[0].total).toBe(0); // D29
    expect(o.series.points.find((p) => p.day === dayAgo(now, 19))!.total).toBe(60 * MiB);
    expect(o.series.points.find((p) => p.day === dayAgo(now, 9))!.total).toBe(170 * MiB); // goose 60 + a 110, carried
    const custom = await getFleetOverview(t.current.db, {
      range: "custom",
      from: dayAgo(now, 8),
      to: dayAgo(now, 8),
      now,
    });
    expect(custom.series.points).toEqual([
      {
        day: dayAgo(now, 8),
        values: { "claude-code": 200 * MiB, codex: 10 * MiB, goose: 60 * MiB, gemini: 0, modules: 0, "script-data": 0 },
        total: 270 * MiB,
      },
    ]);
  });

  it("computes growth over 1, 7 and 30 days from the roll-up", async () => {
    const o = await getFleetOverview(t.current.db, { now });
    expect(o.growth.d1).toEqual({ bytes: (2103 - 887) * MiB, ratio: (2103 - 887) / 887 });
    expect(o.growth.d7).toEqual({ bytes: (2103 - 486) * MiB, ratio: (2103 - 486) / 486 });
    expect(o.growth.d30).toEqual({ bytes: 2103 * MiB, ratio: null });
  });

  it("lists top workspaces, top agents and the fastest-growing roots", async () => {
    const o = await getFleetOverview(t.current.db, { now });
    expect(o.topWorkspaces.map((w) => [w.id, w.totalBytes / MiB])).toEqual([
      ["ws-a", 1541],
      ["ws-b", 502],
      ["ws-d", 60],
      // ws-c never reported: it holds nothing measured, so it is not among the largest
    ]);
    expect(o.topAgents).toEqual([
      { agent: "claude-code", bytes: 1537 * MiB, workspaces: 2, roots: 2 },
      { agent: "gemini", bytes: 500 * MiB, workspaces: 1, roots: 1 },
      { agent: "goose", bytes: 60 * MiB, workspaces: 1, roots: 1 },
      // Grouped as the chart's series are, under the chart's names: no "other" that the legend calls otherwise.
      { agent: "script-data", bytes: 5 * MiB, workspaces: 1, roots: 1 },
      { agent: "modules", bytes: 1 * MiB, workspaces: 1, roots: 1 },
    ]);
    expect(o.topAgents.every((a) => o.series.keys.includes(a.agent))).toBe(true);
    expect(o.fastestGrowingRoots).toEqual([
      {
        workspace: { id: "ws-a", name: "alpha", owner: "alice" },
        rootKey: "claude-code:data",
        agent: "claude-code",
        kind: "tool",
        bytes: 1536 * MiB,
        bytesBefore: 300 * MiB,
        growthBytes: 1236 * MiB,
        growthBytesPerDay: (1236 * MiB) / 7,
        sinceDay: dayAgo(now, 7),
      },
      {
        workspace: { id: "ws-b", name: "bravo", owner: "bob" },
        rootKey: "gemini:data",
        agent: "gemini",
        kind: "tool",
        bytes: 500 * MiB,
        bytesBefore: 100 * MiB,
        growthBytes: 400 * MiB,
        growthBytesPerDay: (400 * MiB) / 6,
        sinceDay: dayAgo(now, 7),
      },
    ]);
  });

  it("lists volumes filling soon, silent workspaces and a findings summary", async () => {
    const o = await getFleetOverview(t.current.db, { now });
    expect(o.volumesAtRisk).toHaveLength(1);
    expect(o.fillingDays).toBe(7);
    const used = [
      [10, 1],
      [8, 2],
      [7, 3],
      [0, 9.375],
    ].map(([n, g]) => ({ t: Date.parse(`${dayAgo(now, n)}T10:00:00Z`), v: g * GiB }));
    const full = forecastFull(used, 0.625 * GiB, Date.parse(`${dayAgo(now, 0)}T10:00:00Z`))!;
    expect(o.volumesAtRisk[0]).toMatchObject({
      workspace: { id: "ws-a" },
      forecastFullAt: full.toISOString(),
      volume: {
        sizeBytes: 10 * GiB,
        availBytes: 0.625 * GiB,
        usedBytes: 9.375 * GiB,
        usePercent: 94,
        inodes: null,
        full: false,
      },
    });
    expect(o.volumesAtRisk[0].daysUntilFull).toBeCloseTo(differenceInMilliseconds(full, now) / millisecondsInDay, 9);
    expect(o.silent.count).toBe(1);
    expect(o.silent.workspaces).toEqual([
      {
        id: "ws-d",
        name: "delta",
        owner: "dave",
        lastCollectedAt: `${dayAgo(now, 19)}T10:00:00.000Z`,
        hoursSilent: 19 * 24 + 2,
      },
    ]);
    expect(o.findings.total).toBe(10);
    expect(o.findings.bySeverity).toEqual({ critical: 1, warning: 6, info: 3 });
    expect(o.findings.top[0]).toMatchObject({ ruleId: "volume-filling", workspace: { id: "ws-a" } });
  });
});
