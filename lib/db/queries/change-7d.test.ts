import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { at, enroll, MiB, seedScenario, send, testNow } from "@/tests/support/reports";
import { workspaceExportRows } from "./export-workspaces";
import { getWorkspaceDetail } from "./workspace-detail";
import { listWorkspaces } from "./workspace-list";
import { FLEET } from "@/lib/db/scope";

describeEachDatabase("7-day change", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
    // No report on the day 7 days ago: the change is measured from the report before it (D9), not after (D3).
    const wsE = { id: "ws-e", owner: "erin" };
    await enroll(t.current.db, wsE);
    await send(t.current.db, wsE, at(now, 9), [{ key: "codex:data", agent: "codex", bytes: 10 * MiB }]);
    await send(t.current.db, wsE, at(now, 3), [{ key: "codex:data", agent: "codex", bytes: 30 * MiB }]);
    await send(t.current.db, wsE, at(now, 0), [{ key: "codex:data", agent: "codex", bytes: 70 * MiB }]);
  });

  it("is the same figure in the workspaces table (sorted by it or not), its export and the workspace page", async () => {
    const db = t.current.db;
    const byId = (rows: { id: string; change7dBytes: number | null }[]) =>
      Object.fromEntries(rows.map((r) => [r.id, r.change7dBytes]));
    const listed = byId((await listWorkspaces(db, FLEET, { now, pageSize: 200 })).rows);
    expect(listed).toMatchObject({ "ws-a": 1216 * MiB, "ws-c": null, "ws-e": 60 * MiB });
    expect(byId((await listWorkspaces(db, FLEET, { now, sort: "change7d", pageSize: 200 })).rows)).toEqual(listed);
    const exported: { id: string; change7dBytes: number | null }[] = [];
    for await (const r of workspaceExportRows(db, FLEET, { now })) exported.push(r);
    expect(byId(exported)).toEqual(listed);
    for (const id of Object.keys(listed))
      expect((await getWorkspaceDetail(db, FLEET, id, { now }))!.workspace.change7dBytes, id).toBe(listed[id]);
  });
});
