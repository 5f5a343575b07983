import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { at, enroll, MiB, seedScenario, send, testNow } from "@/tests/support/reports";
import { workspaceExportRows } from "./export-workspaces";
import { listFindings } from "./findings";
import { updateRules } from "@/lib/services/finding-rules";
import { getFleetOverview } from "./fleet";
import { getWorkspaceDetail } from "./workspace-detail";
import { listWorkspaces } from "./workspace-list";
import { FLEET } from "@/lib/db/scope";

const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describeEachDatabase("silent workspaces", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
    // Silent for 50 and 26 hours at `now`: both over 24 hours, one over 48.
    const wsF = { id: "ws-f", owner: "fay" };
    const wsG = { id: "ws-g", owner: "gus" };
    for (const ws of [wsF, wsG]) await enroll(t.current.db, ws);
    await send(t.current.db, wsF, at(now, 2), [{ key: "codex:data", agent: "codex", bytes: 1 * MiB }]);
    await send(t.current.db, wsG, at(now, 1), [{ key: "codex:data", agent: "codex", bytes: 1 * MiB }]);
  });

  it("is the silent-workspace rule's threshold on the fleet overview, the workspaces list, its export and the workspace page", async () => {
    const db = t.current.db;
    for (const [hours, expected] of [
      [24, ["ws-d", "ws-f", "ws-g"]],
      [48, ["ws-d", "ws-f"]],
    ] as const) {
      await updateRules(db, { rules: [{ id: "silent-workspace", params: { hours } }] }, TEST_WHO);
      const found = (await listFindings(db, FLEET, { now, rule: "silent-workspace" })).findings
        .map((f) => f.workspace.id)
        .sort();
      expect(found, `${hours} h`).toEqual(expected);
      const fleet = await getFleetOverview(db, { now });
      expect(fleet.silent.hours).toBe(hours);
      expect(fleet.silent.count).toBe(expected.length);
      expect(fleet.silent.workspaces.map((w) => w.id).sort()).toEqual(expected);
      const listed = (await listWorkspaces(db, FLEET, { now, pageSize: 200 })).rows;
      expect(
        listed
          .filter((r) => r.silent)
          .map((r) => r.id)
          .sort(),
      ).toEqual(expected);
      expect(
        (await collect(workspaceExportRows(db, FLEET, { now })))
          .filter((r) => r.silent)
          .map((r) => r.id)
          .sort(),
      ).toEqual(expected);
      for (const r of listed)
        expect((await getWorkspaceDetail(db, FLEET, r.id, { now }))!.workspace.silent, r.id).toBe(r.silent);
    }
  });
});
