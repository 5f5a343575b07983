import { and, isNull, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { at, enroll, MiB, seedScenario, send, testNow } from "@/tests/support/reports";
import { updateRetention } from "@/lib/services/retention";
import { runMaintenance } from "../maintenance-task";
import { workspaces } from "../schema";
import type { Db } from "../types";
import { change7dSince, keepChangeBases } from "./change-7d";
import { workspaceExportRows } from "./export-workspaces";
import { getWorkspaceDetail } from "./workspace-detail";
import { listWorkspaces } from "./workspace-list";
import { FLEET } from "@/lib/db/scope";

const DAY = 86_400_000;
const codex = (bytes: number) => [{ key: "codex:data", agent: "codex", bytes }];

/** Every workspace's change from scratch: its total less its last daily total on or before the day 7 days ago. */
async function fromScratch(db: Db, now: Date): Promise<Record<string, number | null>> {
  const rows = await db
    .select({
      id: workspaces.id,
      change: sql<number | null>`(${workspaces.totalBytes} - (select d.bytes from workspace_daily d
        where d.workspace_id = ${workspaces.id} and d.day <= ${change7dSince(now)}::date
        order by d.day desc limit 1))::float8`,
    })
    .from(workspaces)
    .where(isNull(workspaces.deletedAt));
  return Object.fromEntries(rows.map((r) => [r.id, r.change === null ? null : Number(r.change)]));
}

/** The workspaces (not deleted) whose kept bases hold for `now`'s day (kept for it, or the day before). */
async function keptFor(db: Db, now: Date): Promise<string[]> {
  const since = change7dSince(now);
  const rows = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(sql`${workspaces.changeSince} in (${since}::date, ${since}::date - 1)`, isNull(workspaces.deletedAt)))
    .orderBy(workspaces.id);
  return rows.map((r) => r.id);
}

describeEachDatabase("7-day change", (t) => {
  const now = testNow();
  const byId = (rows: { id: string; change7dBytes: number | null }[]) =>
    Object.fromEntries(rows.map((r) => [r.id, r.change7dBytes]));
  /** The table sorted by the change (what reads every workspace's) and its default order, against fromScratch. */
  const expectAsFromScratch = async (when: Date) => {
    const db = t.current.db;
    const scratch = await fromScratch(db, when);
    const sorted = (await listWorkspaces(db, FLEET, { now: when, sort: "change7d", pageSize: 200 })).rows;
    expect(byId(sorted)).toEqual(scratch);
    expect(byId((await listWorkspaces(db, FLEET, { now: when, pageSize: 200 })).rows)).toEqual(scratch);
    // Sorted by the change, descending, the blanks last, ties by id.
    const order = Object.entries(scratch).sort(
      ([a, x], [b, y]) => (x === null ? 1 : 0) - (y === null ? 1 : 0) || (y ?? 0) - (x ?? 0) || b.localeCompare(a),
    );
    expect(sorted.map((r) => r.id)).toEqual(order.map(([id]) => id));
  };

  beforeAll(async () => {
    await seedScenario(t.current.db, now);
    // No report on the day 7 days ago: the change is measured from the report before it (D9), not after (D3).
    const wsE = { id: "ws-e", owner: "erin" };
    await enroll(t.current.db, wsE);
    await send(t.current.db, wsE, at(now, 9), codex(10 * MiB));
    await send(t.current.db, wsE, at(now, 3), codex(30 * MiB));
    await send(t.current.db, wsE, at(now, 0), codex(70 * MiB));
  });

  it("is the same figure in the workspaces table (sorted by it or not), its export and the workspace page", async () => {
    const db = t.current.db;
    const listed = byId((await listWorkspaces(db, FLEET, { now, pageSize: 200 })).rows);
    expect(listed).toMatchObject({ "ws-a": 1216 * MiB, "ws-c": null, "ws-e": 60 * MiB });
    expect(byId((await listWorkspaces(db, FLEET, { now, sort: "change7d", pageSize: 200 })).rows)).toEqual(listed);
    const exported: { id: string; change7dBytes: number | null }[] = [];
    for await (const r of workspaceExportRows(db, FLEET, { now })) exported.push(r);
    expect(byId(exported)).toEqual(listed);
    for (const id of Object.keys(listed))
      expect((await getWorkspaceDetail(db, FLEET, id, { now }))!.workspace.change7dBytes, id).toBe(listed[id]);
  });

  // The kept bases (change_since, change_base_bytes, change_next_bytes) against the change from scratch, through
  // what writes workspace_daily or moves the day: in order, each step on the state the one before left.
  it("keeps bases equal to the change from scratch, for the day kept and the day after", async () => {
    const db = t.current.db;
    await expectAsFromScratch(now); // nothing kept yet: every row looked up
    await keepChangeBases(db, now);
    const all = Object.keys(await fromScratch(db, now)).sort();
    expect(await keptFor(db, now)).toEqual(all);
    await expectAsFromScratch(now);
    const tomorrow = new Date(now.getTime() + DAY);
    expect(await keptFor(db, tomorrow)).toEqual(all);
    await expectAsFromScratch(tomorrow);
    await expectAsFromScratch(new Date(now.getTime() + 2 * DAY)); // kept for neither: looked up
  });

  it("stays equal after reports in order, late reports and new workspaces", async () => {
    const db = t.current.db;
    await keepChangeBases(db, now);
    // In order, today: the bases hold (the days written are after them).
    await send(db, { id: "ws-e", owner: "erin" }, at(now, 0, 11), codex(75 * MiB));
    expect(await keptFor(db, now)).toContain("ws-e");
    await expectAsFromScratch(now);
    // Late, on a day the bases cover: cleared, looked up until the maintenance rewrites them.
    await send(db, { id: "ws-e", owner: "erin" }, at(now, 8), codex(20 * MiB));
    expect(await keptFor(db, now)).not.toContain("ws-e");
    await expectAsFromScratch(now);
    // A new workspace, and one silent since before the bases' day that reports again in order.
    const wsF = { id: "ws-f", owner: "fay" };
    await enroll(db, wsF);
    await send(db, wsF, at(now, 12), codex(5 * MiB));
    await keepChangeBases(db, now);
    await send(db, wsF, at(now, 7), codex(9 * MiB));
    expect(await keptFor(db, now)).not.toContain("ws-f");
    await expectAsFromScratch(now);
    await keepChangeBases(db, now);
    expect(await keptFor(db, now)).toContain("ws-f");
    await expectAsFromScratch(now);
  });

  it("stays equal after the maintenance expires the roll-ups and deletes a workspace", async () => {
    const db = t.current.db;
    await db.execute(sql`update workspaces set deleted_at = now() where id = 'ws-f'`);
    await expectAsFromScratch(now);
    // 40 days on, roll-ups kept 45 days: the days before 5 days ago go, ws-e's base among them.
    await updateRetention({ db, who: TEST_WHO }, { rollups: 45 });
    const later = new Date(now.getTime() + 40 * DAY);
    await runMaintenance(t.current, { now: later });
    expect(await keptFor(db, later)).toEqual(Object.keys(await fromScratch(db, later)).sort());
    await expectAsFromScratch(later);
  });
});
