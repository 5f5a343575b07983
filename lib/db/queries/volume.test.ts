import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { inodeUsePercent, volumeUsePercent } from "@/tests/support/df";
import { at, enroll, GiB, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";
import { getFleetOverview } from "./fleet";
import { listFindings } from "./findings";
import { updateRules } from "@/lib/services/finding-rules";
import { getWorkspaceDetail } from "./workspace-detail";
import { workspaceExportRows } from "./export-workspaces";
import { listWorkspaces } from "./workspace-list";
import { FLEET } from "@/lib/db/scope";

// Volumes as df shows them, and a full disk flagged whatever its growth.
const FULL: WorkspaceSpec = { id: "ws-full", owner: "fay" };
const INODES: WorkspaceSpec = { id: "ws-inodes", owner: "ivan" };
const RESERVED: WorkspaceSpec = { id: "ws-reserved", owner: "rita" };
const OLD: WorkspaceSpec = { id: "ws-old", owner: "olga" };
const FILLING: WorkspaceSpec = { id: "ws-filling", owner: "finn" };
const root = { key: "claude-code:data", agent: "claude-code", bytes: 1 * GiB };

describeEachDatabase("volumes as df shows them", (t) => {
  const now = testNow();
  beforeAll(async () => {
    const db = t.current.db;
    for (const ws of [FULL, INODES, RESERVED, OLD, FILLING]) await enroll(db, ws);
    // Full for three days: no growth, so no forecast, and still critical. ext4 keeps 5 % for root, so a
    // full disk shows Avail 0 with Used below Size.
    const full = {
      totalBytes: 20 * GiB,
      usedBytes: 19 * GiB,
      freeBytes: 0,
      inodes: { total: 1_310_720, used: 400_000, free: 910_720 },
    };
    for (const n of [2, 1, 0]) await send(db, FULL, at(now, n, 9), [root], full);
    // Space left, but 96 % of the inodes used.
    await send(db, INODES, at(now, 0, 9), [root], {
      totalBytes: 20 * GiB,
      usedBytes: 5 * GiB,
      freeBytes: 14 * GiB,
      inodes: { total: 1000, used: 960, free: 40 },
    });
    // 5 GiB reserved for root: df says 29 % (27 ÷ 95, rounded up) where 1 − Avail ÷ Size would say 32 %.
    await send(db, RESERVED, at(now, 0, 9), [root], {
      totalBytes: 100 * GiB,
      usedBytes: 27 * GiB,
      freeBytes: 68 * GiB,
    });
    // A reporter before 0.2: Size and Avail only.
    await send(db, OLD, at(now, 0, 9), [root], { totalBytes: 10 * GiB, freeBytes: 4 * GiB });
    // Growing 1 GiB a day with 3 GiB left: forecast to fill in 3 days, not yet full.
    for (const n of [4, 3, 2, 1, 0]) {
      const used = (11 - n) * GiB;
      await send(db, FILLING, at(now, n, 9), [root], {
        totalBytes: 14 * GiB,
        usedBytes: used,
        freeBytes: 14 * GiB - used,
      });
    }
  });

  it("computes Use% as df does: Used ÷ (Used + Avail), rounded up", async () => {
    const rows = (await listWorkspaces(t.current.db, FLEET, { now, sort: "volumeUsed", dir: "desc" })).rows;
    const byId = new Map(rows.map((r) => [r.id, r.volume]));
    expect(byId.get("ws-reserved")).toMatchObject({
      sizeBytes: 100 * GiB,
      usedBytes: 27 * GiB,
      availBytes: 68 * GiB,
      usePercent: 29,
    });
    expect(byId.get("ws-full")).toMatchObject({
      usePercent: 100,
      full: true,
      inodes: { total: 1_310_720, used: 400_000, free: 910_720, usePercent: 31 },
    });
    expect(byId.get("ws-inodes")).toMatchObject({
      usePercent: 27,
      full: false,
      inodesFull: true,
      inodes: { usePercent: 96 },
    });
    // Old format: Used is Size − Avail, inodes unknown.
    expect(byId.get("ws-old")).toEqual({
      sizeBytes: 10 * GiB,
      usedBytes: 6 * GiB,
      availBytes: 4 * GiB,
      usePercent: 60,
      inodes: null,
      full: false,
      inodesFull: false,
    });
    // Out of inodes is full, whatever its space: before 79 % with room (the order's own test is below).
    expect(rows.map((r) => r.id).slice(0, 3)).toEqual(["ws-full", "ws-inodes", "ws-filling"]);
  });

  it("flags a full volume with no growth as critical, and nearly exhausted inodes too", async () => {
    const f = await listFindings(t.current.db, FLEET, { now });
    const of = (id: string) =>
      f.findings.filter((x) => x.workspace.id === id).map((x) => [x.ruleId, x.severity, x.value]);
    // A full volume is also below its agents' minimum free space: the restart rule says what that costs.
    expect(of("ws-full")).toEqual([
      ["volume-full", "critical", 100],
      ["below-agent-minimum", "warning", 0],
    ]);
    expect(of("ws-inodes")).toEqual([["inodes-full", "critical", 96]]);
    expect(of("ws-filling")).toEqual([
      ["volume-filling", "critical", expect.any(Number)],
      ["fast-growth", "warning", 1 * GiB],
    ]);
    expect(of("ws-reserved")).toEqual([]);
    expect(f.findings[0]).toMatchObject({ ruleId: "volume-full", workspace: { id: "ws-full" } });
  });

  it("lists full volumes first on the overview, then the ones filling soon", async () => {
    const o = await getFleetOverview(t.current.db, { now });
    expect(
      o.volumesAtRisk.map((r) => [r.workspace.id, r.volume.full || r.volume.inodesFull, r.forecastFullAt === null]),
    ).toEqual([
      ["ws-full", true, true],
      ["ws-inodes", true, true],
      ["ws-filling", false, false],
    ]);
    expect(o.findings.top[0]).toMatchObject({ ruleId: "volume-full" });
  });

  it("sorts full volumes (space or inodes) past every number on the table and its export", async () => {
    const db = t.current.db;
    const order = async (sort: "daysUntilFull" | "volumeUsed", dir: "asc" | "desc") => {
      const shown = (await listWorkspaces(db, FLEET, { now, sort, dir })).rows.map((r) => r.id);
      const exported: string[] = [];
      for await (const r of workspaceExportRows(db, FLEET, { now, sort, dir }, { pageSize: 1 })) exported.push(r.id);
      expect(exported, `${sort} ${dir}`).toEqual(shown);
      return shown;
    };
    // Full in, soonest first: the full ones (the one out of inodes too, whose space forecast is beside the
    // point), then the forecast, then the volumes that do not grow.
    expect(await order("daysUntilFull", "asc")).toEqual([
      "ws-full",
      "ws-inodes",
      "ws-filling",
      "ws-old",
      "ws-reserved",
    ]);
    expect(await order("daysUntilFull", "desc")).toEqual([
      "ws-filling",
      "ws-inodes",
      "ws-full",
      "ws-reserved",
      "ws-old",
    ]);
    // Fullest first: out of inodes at 27 % space is full, before 79 % with room.
    expect(await order("volumeUsed", "desc")).toEqual(["ws-full", "ws-inodes", "ws-filling", "ws-old", "ws-reserved"]);
    expect(await order("volumeUsed", "asc")).toEqual(["ws-reserved", "ws-old", "ws-filling", "ws-inodes", "ws-full"]);
  });

  it("shows the workspace page's volume as df does, with capacity = Used + Avail", async () => {
    const d = (await getWorkspaceDetail(t.current.db, FLEET, "ws-full", { range: "7d", now }))!;
    expect(d.workspace.volume).toMatchObject({
      sizeBytes: 20 * GiB,
      usedBytes: 19 * GiB,
      availBytes: 0,
      usePercent: 100,
      full: true,
    });
    expect(d.volume.history.at(-1)).toMatchObject({ usedBytes: 19 * GiB, capacityBytes: 19 * GiB, reported: true });
    expect(d.volume.forecast.points).toEqual([]);
  });

  it("takes the threshold from the editable rule", async () => {
    const db = t.current.db;
    await updateRules(
      db,
      {
        rules: [
          { id: "inodes-full", params: { usedPercent: 97 } },
          { id: "volume-full", enabled: false },
        ],
      },
      TEST_WHO,
    );
    try {
      const f = await listFindings(db, FLEET, { now });
      expect(f.findings.filter((x) => x.ruleId === "inodes-full" || x.ruleId === "volume-full")).toEqual([]);
      const rows = (await listWorkspaces(db, FLEET, { now })).rows;
      expect(rows.filter((r) => r.volume?.full || r.volume?.inodesFull)).toEqual([]);
    } finally {
      await updateRules(
        db,
        {
          rules: [
            { id: "inodes-full", params: { usedPercent: 95 } },
            { id: "volume-full", enabled: true },
          ],
        },
        TEST_WHO,
      );
    }
  });

  it("rounds Use% and IUse% in the database exactly as df's formula does, edge cases included", async () => {
    const cases = [
      { totalBytes: 100, usedBytes: 7, freeBytes: 93, inodes: { total: 640, used: 40, free: 600 } },
      { totalBytes: 1000, usedBytes: 600, freeBytes: 350 },
      { totalBytes: 2 ** 50, usedBytes: 2 ** 49 + 4096, freeBytes: 2 ** 49 - 4096 },
      { totalBytes: 1000, freeBytes: 999 },
    ];
    for (const [i, volume] of cases.entries()) {
      const ws = { id: `ws-df-${i}`, owner: "dora" };
      await enroll(t.current.db, ws);
      await send(t.current.db, ws, at(now, 0, 9), [root], volume);
    }
    const rows = (await listWorkspaces(t.current.db, FLEET, { now, q: "ws-df-", sort: "name", dir: "asc" })).rows;
    expect(rows.map((r) => [r.volume?.usePercent, r.volume?.inodes?.usePercent ?? null])).toEqual(
      cases.map((v) => [volumeUsePercent(v), inodeUsePercent(v)]),
    );
  });
});
