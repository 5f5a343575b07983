import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { rangeChange } from "@/lib/shaping/range-change";
import { eachDay, utcDayOf } from "@/lib/series";
import { at, dayAgo, enroll, MiB, send, testNow, type RootSpec, type WorkspaceSpec } from "@/tests/support/reports";
import { openCsvStream } from "@/lib/csv/stream";
import { moduleExport } from "@/lib/export/pages";
import { getModuleDetail, moduleExists } from "./modules";

const M1: WorkspaceSpec = { id: "mod-1", name: "one", owner: "alice", template: "ai-dev" };
const M2: WorkspaceSpec = { id: "mod-2", name: "two", owner: "bob", template: "minimal" };
const M3: WorkspaceSpec = { id: "mod-3", name: "three", owner: "carol", template: "minimal" };
const KEY = "coder/claude-code";
const mod = (key: string, mib: number): RootSpec => ({
  key,
  kind: "module",
  agent: "claude-code",
  path: `.coder-modules/${key}`,
  bytes: mib * MiB,
});
const tool: RootSpec = { key: "codex:data", agent: "codex", bytes: 5 * MiB };

describeEachDatabase("getModuleDetail", (t) => {
  const now = testNow();
  // [workspace, days ago, hour, the module's MiB in that report (null: the report holds no such folder)]
  const sent: [WorkspaceSpec, number, number, number | null][] = [
    [M1, 10, 10, 100],
    [M1, 5, 10, 150],
    [M1, 2, 8, 170],
    [M1, 2, 14, 180],
    [M1, 0, 10, 250],
    [M2, 3, 10, 40],
    [M2, 1, 10, null],
    [M3, 4, 10, null],
  ];

  beforeAll(async () => {
    const db = t.current.db;
    for (const ws of [M1, M2, M3]) await enroll(db, ws);
    for (const [ws, ago, hour, mib] of sent) {
      await send(db, ws, at(now, ago, hour), [tool, ...(mib === null ? [] : [mod(KEY, mib)]), mod("coder/other", 1)]);
    }
  });

  /** What each day's level must be: per workspace, the module in its last report on or before the day, summed. */
  const oracle = (day: string) =>
    [M1, M2, M3].reduce((sum, ws) => {
      const last = sent.filter(([w, ago]) => w === ws && dayAgo(now, ago) <= day).at(-1);
      return sum + (last?.[3] ?? 0) * MiB;
    }, 0);

  it("sums its roots per day, each workspace at its last report, a removed folder at 0", async () => {
    const m = (await getModuleDetail(t.current.db, KEY, { range: "7d", now }))!;
    const days = eachDay(dayAgo(now, 6), utcDayOf(now));
    expect(m.series.map((p) => p.day)).toEqual(days);
    expect(m.series.map((p) => p.bytes)).toEqual(days.map(oracle));
    expect(m.series.map((p) => p.bytes / MiB)).toEqual([100, 150, 150, 190, 220, 180, 250]);
  });

  it("states the total now, its workspaces, and a change equal to the last point minus the first", async () => {
    for (const range of ["7d", "30d"] as const) {
      const m = (await getModuleDetail(t.current.db, KEY, { range, now }))!;
      expect(m.total).toEqual({ bytes: 250 * MiB, workspaces: 1 });
      expect(m.series.at(-1)!.bytes).toBe(m.total.bytes);
      const change = rangeChange(m.series)!;
      expect(change.bytes).toBe(m.series.at(-1)!.bytes - m.series[0].bytes);
      expect(change.bytes / MiB).toBe(range === "7d" ? 150 : 250);
    }
    const m = (await getModuleDetail(t.current.db, KEY, { range: "7d", now }))!;
    expect(m.agent).toBe("claude-code");
    expect(m.workspaces.map((w) => [w.id, w.name, w.owner, w.bytes / MiB])).toEqual([["mod-1", "one", "alice", 250]]);
  });

  it("lists every workspace holding it, largest first", async () => {
    const m = (await getModuleDetail(t.current.db, "coder/other", { range: "7d", now }))!;
    expect(m.total).toEqual({ bytes: 3 * MiB, workspaces: 3 });
    expect(m.workspaces.map((w) => w.id)).toEqual(["mod-1", "mod-2", "mod-3"]);
    expect(m.series.map((p) => p.bytes / MiB)).toEqual([1, 1, 2, 3, 3, 3, 3]); // one more as each first reports
  });

  it("knows a module whose folders are gone, and no other", async () => {
    const db = t.current.db;
    await expect(moduleExists(db, KEY)).resolves.toBe(true);
    await expect(moduleExists(db, "coder/no-such-module")).resolves.toBe(false);
    await expect(moduleExists(db, "codex:data")).resolves.toBe(false);
    expect(await getModuleDetail(db, "coder/no-such-module", { now })).toBeNull();
  });

  it("exports the chart's series as CSV, day by day, and 404 for an unknown module", async () => {
    const db = t.current.db;
    const m = (await getModuleDetail(db, KEY, { range: "7d", now }))!;
    const exp = await moduleExport(db, KEY, { range: "7d" }, now);
    const text = await new Response(await openCsvStream(exp)).text();
    expect(text.split("\r\n").slice(0, -1)).toEqual(["day,bytes", ...m.series.map((p) => `${p.day},${p.bytes}`)]);
    await expect(moduleExport(db, "coder/no-such-module", {}, now)).rejects.toMatchObject({ status: 404 });
  });
});
