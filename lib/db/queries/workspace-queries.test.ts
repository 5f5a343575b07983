import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { listWorkspaces } from "./workspace-list";
import { getWorkspaceDetail } from "./workspace-detail";
import { dayAgo, GiB, MiB, seedScenario, testNow } from "@/tests/support/reports";
import { FLEET } from "@/lib/db/scope";

describeEachDatabase("workspaces queries", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });
  const ids = (l: { rows: { id: string }[] }) => l.rows.map((r) => r.id);

  it("sorts by total and pages with a total count", async () => {
    const db = t.current.db;
    const all = await listWorkspaces(db, FLEET, { now });
    expect(ids(all)).toEqual(["ws-a", "ws-b", "ws-d", "ws-c"]);
    expect(all.total).toBe(4);
    const p2 = await listWorkspaces(db, FLEET, { now, pageSize: 2, page: 2 });
    expect(ids(p2)).toEqual(["ws-d", "ws-c"]);
    expect(p2.total).toBe(4);
    const p3 = await listWorkspaces(db, FLEET, { now, pageSize: 2, page: 3 });
    expect(p3).toMatchObject({ rows: [], total: 4 });
    expect(ids(await listWorkspaces(db, FLEET, { now, sort: "name", dir: "asc" }))).toEqual([
      "ws-a",
      "ws-b",
      "ws-c",
      "ws-d",
    ]);
    expect(ids(await listWorkspaces(db, FLEET, { now, sort: "lastReport", dir: "desc" }))).toEqual([
      "ws-a",
      "ws-b",
      "ws-d",
      "ws-c",
    ]);
    // Never reported is older than any report.
    expect(ids(await listWorkspaces(db, FLEET, { now, sort: "lastReport", dir: "asc" }))).toEqual([
      "ws-c",
      "ws-d",
      "ws-b",
      "ws-a",
    ]);
    expect(ids(await listWorkspaces(db, FLEET, { now, sort: "volumeUsed", dir: "asc" }))[0]).toBe("ws-a");
  });

  it("sorts by the 7-day change, nulls last", async () => {
    const l = await listWorkspaces(t.current.db, FLEET, { now, sort: "change7d", dir: "desc" });
    expect(l.rows.map((r) => [r.id, r.change7dBytes === null ? null : r.change7dBytes / MiB])).toEqual([
      ["ws-a", 1541 - 325],
      ["ws-b", 502 - 101],
      ["ws-d", 0],
      ["ws-c", null],
    ]);
    const asc = await listWorkspaces(t.current.db, FLEET, { now, sort: "change7d", dir: "asc" });
    expect(ids(asc)).toEqual(["ws-d", "ws-b", "ws-a", "ws-c"]);
  });

  it("filters by text, owner, template and agent", async () => {
    const db = t.current.db;
    expect(ids(await listWorkspaces(db, FLEET, { now, q: "ALI" }))).toEqual(["ws-a"]);
    expect(ids(await listWorkspaces(db, FLEET, { now, q: "100%" }))).toEqual([]);
    expect(ids(await listWorkspaces(db, FLEET, { now, owner: "bob" }))).toEqual(["ws-b"]);
    expect(ids(await listWorkspaces(db, FLEET, { now, template: "minimal" }))).toEqual(["ws-b", "ws-c"]);
    expect(ids(await listWorkspaces(db, FLEET, { now, agent: "claude-code" }))).toEqual(["ws-a", "ws-b"]);
    const goose = await listWorkspaces(db, FLEET, { now, agent: "goose" });
    expect([ids(goose), goose.total]).toEqual([["ws-d"], 1]);
  });

  it("fills each row's sparkline over the last 30 days, carrying values forward", async () => {
    const l = await listWorkspaces(t.current.db, FLEET, { now });
    expect(l.sparklineDays).toHaveLength(30);
    expect(l.sparklineDays[29]).toBe(dayAgo(now, 0));
    const a = l.rows.find((r) => r.id === "ws-a")!;
    const expected: (number | null)[] = Array(30).fill(null);
    // index i is day D(29 - i)
    for (let n = 10; n >= 0; n--) expected[29 - n] = n >= 9 ? 110 : n === 8 ? 210 : n >= 1 ? 325 : 1541;
    expect(a.sparkline.map((v) => (v === null ? null : v / MiB))).toEqual(expected);
    expect(l.rows.find((r) => r.id === "ws-c")!.sparkline).toEqual(Array(30).fill(null));
    expect(a).toMatchObject({
      totalBytes: 1541 * MiB,
      change7dBytes: 1216 * MiB,
      largestAgent: "claude-code",
      volume: {
        sizeBytes: 10 * GiB,
        usedBytes: 9.375 * GiB,
        availBytes: 0.625 * GiB,
        usePercent: 94,
        inodes: null,
        full: false,
        inodesFull: false,
      },
      silent: false,
      lastCollectedAt: `${dayAgo(now, 0)}T10:00:00.000Z`,
    });
    expect(l.rows.find((r) => r.id === "ws-d")!.silent).toBe(true);
  });

  it("returns null for an unknown workspace", async () => {
    expect(await getWorkspaceDetail(t.current.db, FLEET, "nope", { now })).toBeNull();
  });

  it("shows usage by root per day, marking carried days", async () => {
    const d = (await getWorkspaceDetail(t.current.db, FLEET, "ws-a", { range: "7d", now }))!;
    expect(d.usage.roots.map((r) => r.key)).toEqual(["claude-code:data", "script-data:0001", "codex:data"]);
    expect(d.usage.points.map((p) => p.reported)).toEqual([false, false, false, false, false, false, true]);
    expect(d.usage.points[0]).toEqual({
      day: dayAgo(now, 6),
      values: { "claude-code:data": 300 * MiB, "script-data:0001": 5 * MiB, "codex:data": 20 * MiB },
      total: 325 * MiB,
      reported: false,
    });
    expect(d.usage.points[6].values).toEqual({
      "claude-code:data": 1536 * MiB,
      "script-data:0001": 5 * MiB,
      "codex:data": 0,
    });
    const ten = (await getWorkspaceDetail(t.current.db, FLEET, "ws-a", {
      range: "custom",
      from: dayAgo(now, 11),
      to: dayAgo(now, 8),
      now,
    }))!;
    expect(ten.usage.points.map((p) => [p.total / MiB, p.reported])).toEqual([
      [0, false],
      [110, true],
      [110, false],
      [210, true],
    ]);
    expect(ten.usage.roots.map((r) => r.key)).toEqual(["claude-code:data", "codex:data"]);
  });

  it("returns the latest roots, largest sessions, volume with forecast and report history", async () => {
    const d = (await getWorkspaceDetail(t.current.db, FLEET, "ws-a", { range: "7d", now }))!;
    expect(d.roots.map((r) => [r.key, r.bytes / MiB])).toEqual([
      ["claude-code:data", 1536],
      ["script-data:0001", 5],
    ]);
    expect(d.roots[0].ages["90d"]).toEqual({ bytes: 200 * MiB, files: 20 });
    expect(d.roots[0].categories.logs).toEqual({ bytes: 800 * MiB, files: 100 });
    expect(d.roots[1]).toMatchObject({ kind: "script-data", orphaned: true });
    expect(d.largestSessions.map((s) => [s.path, s.bytes / MiB, s.rootKey])).toEqual([
      ["projects/app/big.jsonl", 300, "claude-code:data"],
      ["projects/app/small.jsonl", 150, "claude-code:data"],
    ]);
    expect(d.workspace.volume).toMatchObject({
      sizeBytes: 10 * GiB,
      availBytes: 0.625 * GiB,
      usedBytes: 9.375 * GiB,
      usePercent: 94,
    });
    expect(d.volume.history.map((h) => (h.usedBytes ?? 0) / GiB)).toEqual([3, 3, 3, 3, 3, 3, 9.375]);
    expect(d.volume.history.every((h) => h.capacityBytes === 10 * GiB)).toBe(true);
    expect(d.volume.forecast.fullAt).toBe(d.workspace.forecastFullAt);
    const f = d.volume.forecast.points;
    expect(f[0]).toEqual({ day: dayAgo(now, 0), usedBytes: 9.375 * GiB });
    expect(f[f.length - 1].usedBytes).toBe(10 * GiB);
    expect(d.reports.map((r) => [r.collectedAt, r.totalBytes / MiB, r.rootCount, r.errorCount])).toEqual([
      [`${dayAgo(now, 0)}T10:00:00.000Z`, 1541, 2, 0],
      [`${dayAgo(now, 7)}T10:00:00.000Z`, 325, 3, 0],
      [`${dayAgo(now, 8)}T10:00:00.000Z`, 210, 2, 0],
      [`${dayAgo(now, 10)}T10:00:00.000Z`, 110, 2, 0],
    ]);
    expect(d.reports[0]).toMatchObject({ reporterVersion: "0.1.0-test", scanMs: 123 });
    expect(d.findings.map((x) => x.ruleId).sort()).toEqual([
      "claude-debug-history",
      "fast-growth",
      "large-session",
      "orphaned-script-data",
      "root-oversize",
      "volume-filling",
    ]);
    expect(d.workspace.change7dBytes).toBe(1216 * MiB);
  });
});
