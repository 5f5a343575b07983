import { beforeAll, expect, it } from "vitest";
import type { SomeCsvExport } from "@/lib/csv/columns";
import { openCsvStream } from "@/lib/csv/stream";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { workspaceExportRows } from "@/lib/db/queries/export-workspaces";
import { findingGroupRows, listFindings } from "@/lib/db/queries/findings";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { describeEachDatabase } from "@/tests/support/db";
import { recordBlocker } from "@/lib/enrollment/blockers";
import { AGENT_TABLES, FLEET_TABLES, WORKSPACE_TABLES } from "@/lib/validations/export";
import { WORKSPACE_SORT_COLUMNS } from "@/lib/validations/workspaces";
import { seedScenario, testNow } from "@/tests/support/reports";
import { fleetExport } from "./fleet";
import { agentWorkspacesExport, findingsExport } from "./lists";
import { agentExport, workspaceExport } from "./pages";
import { FLEET } from "@/lib/db/scope";

const csvLines = async (exp: SomeCsvExport) =>
  (await new Response(await openCsvStream(exp)).text()).split("\r\n").slice(0, -1);
const collect = async <T>(it: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describeEachDatabase("list exports", (t) => {
  const now = testNow();
  beforeAll(async () => {
    await seedScenario(t.current.db, now);
  });

  it("exports the workspaces table in the table's order for every sort, direction and filter, over all pages", async () => {
    const db = t.current.db;
    const cases = [
      ...WORKSPACE_SORT_COLUMNS.flatMap((sort) => (["asc", "desc"] as const).map((dir) => ({ sort, dir }))),
      { q: "a" },
      { owner: "bob" },
      { template: "minimal", sort: "name" as const },
      { agent: "claude-code" },
    ];
    for (const params of cases) {
      const shown = await listWorkspaces(db, FLEET, { ...params, now, pageSize: 200 });
      const exported = await collect(workspaceExportRows(db, FLEET, { ...params, now }, { pageSize: 2 }));
      expect(
        exported.map((r) => r.id),
        JSON.stringify(params),
      ).toEqual(shown.rows.map((r) => r.id));
      expect(exported).toEqual(shown.rows.map(({ sparkline: _, ...row }) => row));
    }
  });

  it("exports every row of the findings page under its filters, in its order, however the pages fall", async () => {
    const db = t.current.db;
    for (const filters of [
      {},
      { severity: "warning" as const },
      { workspace: "ws-a" },
      { rule: "root-oversize" as const },
      { agent: "gemini" },
      { owner: "alice", template: "ai-dev" },
    ]) {
      const shown = await listFindings(db, FLEET, { ...filters, now, limit: 500 });
      expect(shown.findings.length).toBeGreaterThan(0);
      for (const pageSize of [1, 2, 1000]) {
        expect(await collect(findingGroupRows(db, FLEET, { ...filters, now }, { pageSize }))).toEqual(shown.findings);
      }
    }
    const lines = await csvLines(findingsExport(db, FLEET, { owner: "bob" }, { now }));
    expect(lines[0]).toBe(
      "severity,rule,workspace_id,workspace,owner,root,agent,path,findings,value,threshold,unit,message,action",
    );
    expect(lines.slice(1).map((l) => l.split(",")[4])).toEqual(["bob", "bob"]);
  });

  it("exports every workspace of an agent, largest first, as the agent page lists them", async () => {
    const db = t.current.db;
    const detail = (await getAgentDetail(db, "claude-code", { now, limit: 1000 }))!;
    const lines = await csvLines(agentWorkspacesExport(db, "claude-code", { now, pageSize: 1 }));
    expect(lines[0]).toBe("workspace_id,workspace,owner,template,bytes,roots");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(detail.largestWorkspaces.map((w) => w.id));
    expect(lines.slice(1).map((l) => Number(l.split(",")[4]))).toEqual(detail.largestWorkspaces.map((w) => w.bytes));
  });

  it("exports the fleet overview's chart and lists as the page shows them", async () => {
    const db = t.current.db;
    await recordBlocker(db, null, {
      workspace: { id: "ws-no-node", name: "base", owner: "bob" },
      reason: "unsupported-libc",
      detail: "the dashboard's runtime needs glibc, not musl",
    });
    const o = await getFleetOverview(db, { range: "7d", now });
    const rows = {
      series: o.series.points.length * o.series.keys.length,
      "top-workspaces": o.topWorkspaces.length,
      "top-agents": o.topAgents.length,
      "fastest-growing": o.fastestGrowingRoots.length,
      "volumes-at-risk": o.volumesAtRisk.length,
      silent: o.silent.workspaces.length,
      "not-reporting": o.notReporting.workspaces.length,
      homes: 7, // the five parts of the homes, what the volumes hold outside them, what their roots hold
    };
    for (const table of FLEET_TABLES) {
      const exp = await fleetExport(db, table, { range: "7d" }, now);
      const lines = await csvLines(exp);
      expect(lines.length - 1, table).toBe(rows[table]);
      expect(rows[table], table).toBeGreaterThan(0);
    }
    const series = await csvLines(await fleetExport(db, "series", { range: "7d" }, now));
    expect(series[0]).toBe("day,series,bytes");
    const last = o.series.points[6];
    const key = o.series.keys[0];
    expect(series).toContain(`${last.day},${key},${last.values[key]}`);
  });

  it("exports the agent page's and the workspace page's charts and tables", async () => {
    const db = t.current.db;
    for (const table of AGENT_TABLES.filter((x) => x !== "workspaces")) {
      const lines = await csvLines(await agentExport(db, "claude-code", table, { range: "7d" }, now));
      expect(lines.length, table).toBeGreaterThan(1);
    }
    for (const table of WORKSPACE_TABLES) {
      const lines = await csvLines(await workspaceExport(db, FLEET, "ws-a", table, { range: "7d" }, now));
      // ws-a's reporter does not measure the whole home: those two tables are their header alone.
      if (table === "home" || table === "home-folders") expect(lines.length, table).toBe(1);
      else expect(lines.length, table).toBeGreaterThan(1);
    }
    const roots = await csvLines(await workspaceExport(db, FLEET, "ws-a", "roots", { range: "7d" }, now));
    expect(roots[0]).toBe(
      "root,agent,kind,path,bytes,apparent_bytes,files,dirs,oldest_mtime,newest_mtime,orphaned,unreadable,leftovers,collected_at",
    );
    await expect(workspaceExport(db, FLEET, "nope", "roots", {}, now)).rejects.toMatchObject({ status: 404 });
    await expect(agentExport(db, "no-such-agent", "series", {}, now)).rejects.toMatchObject({ status: 404 });
  });
});
