import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { rangeChange } from "@/lib/shaping/range-change";
import { at, dayAgo, enroll, MiB, send, testNow, type WorkspaceSpec } from "@/tests/support/reports";
import { listWorkspaces } from "./workspace-list";

const S1: WorkspaceSpec = { id: "set-1", owner: "olga", template: "tpl-x" };
const S2: WorkspaceSpec = { id: "set-2", owner: "pete", template: "tpl-x" };
const S3: WorkspaceSpec = { id: "set-3", owner: "olga", template: "tpl-y" };

describeEachDatabase("the workspaces list's growth of a template or an owner", (t) => {
  const now = testNow();
  // [workspace, days ago, its total in MiB]
  const sent: [WorkspaceSpec, number, number][] = [
    [S1, 31, 100],
    [S1, 10, 130],
    [S1, 0, 160],
    [S2, 5, 50],
    [S3, 3, 999],
  ];

  beforeAll(async () => {
    const db = t.current.db;
    for (const ws of [S1, S2, S3]) await enroll(db, ws);
    for (const [ws, ago, mib] of sent) {
      await send(db, ws, at(now, ago), [{ key: "codex:data", agent: "codex", bytes: mib * MiB }]);
    }
  });

  /** Each day's level: the set's workspaces, each at its last report on or before the day, summed. */
  const oracle = (set: WorkspaceSpec[]) => (day: string) =>
    set.reduce(
      (sum, ws) => sum + (sent.filter(([w, ago]) => w === ws && dayAgo(now, ago) <= day).at(-1)?.[2] ?? 0) * MiB,
      0,
    );

  it("sums one template's workspaces per day over 30 days, from the same first day as the charts", async () => {
    const l = await listWorkspaces(t.current.db, FLEET, { template: "tpl-x", now });
    const g = l.growth!;
    expect(g.workspaces).toBe(2);
    expect(g.range).toMatchObject({ from: dayAgo(now, 29), to: dayAgo(now, 0), days: 30 });
    expect(g.series.map((p) => p.bytes)).toEqual(g.series.map((p) => oracle([S1, S2])(p.day)));
    expect(rangeChange(g.series)).toMatchObject({
      fromBytes: 100 * MiB,
      toBytes: 210 * MiB,
      bytes: 110 * MiB,
      ratio: 1.1,
    });
  });

  it("sums one owner's workspaces, within the caller's scope, and says nothing unfiltered", async () => {
    const db = t.current.db;
    const g = (await listWorkspaces(db, FLEET, { owner: "olga", now })).growth!;
    expect(g.workspaces).toBe(2);
    expect(rangeChange(g.series)).toMatchObject({ fromBytes: 100 * MiB, toBytes: 1159 * MiB });
    expect((await listWorkspaces(db, ownedBy("pete"), { owner: "olga", now })).growth).toMatchObject({
      workspaces: 0,
      series: expect.arrayContaining([{ day: dayAgo(now, 0), bytes: 0 }]),
    });
    expect((await listWorkspaces(db, FLEET, { now })).growth).toBeNull();
  });
});
