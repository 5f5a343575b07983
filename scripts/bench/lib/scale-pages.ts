import { drizzle } from "drizzle-orm/node-postgres";
import type { Pool } from "pg";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { listFindings } from "@/lib/db/queries/findings";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import type { Db } from "@/lib/db/types";
import { openCsvStream } from "@/lib/csv/stream";
import { usageExport } from "@/lib/export/usage";
import { WORKSPACE_SORT_COLUMNS } from "@/lib/validations/workspaces";
import { addDaysTo, utcDayOf } from "@/lib/series";
import { FLEET } from "@/lib/db/scope";
import { renderMetrics } from "@/lib/metrics/scrape";
import * as schema from "@/lib/db/schema";

// scale.ts's reads: the pages' queries, the floor they are set against, the CSV export and the plans.

export const EXPORT_DAYS = 7;
let capture: { text: string; params: unknown[] }[] | null = null;

/** A client on `pool` whose queries are recorded while explainPages runs them. */
export const recordingDb = (pool: Pool): Db =>
  drizzle({
    client: pool,
    schema,
    logger: { logQuery: (text, params) => capture?.push({ text, params }) },
  }) as unknown as Db;

export const now = new Date();
// The floor: a group-by over the latest table, per agent and per workspace.
const FLOORS = {
  "floor: sum by agent": "select agent, sum(bytes) from root_latest group by agent",
  "floor: sum by workspace": "select workspace_id, sum(bytes) from root_latest group by workspace_id",
};
export const floors = (pool: Pool): Record<string, () => Promise<unknown>> =>
  Object.fromEntries(Object.entries(FLOORS).map(([name, q]) => [name, () => pool.query(q)]));

export const pages = (db: Db): Record<string, () => Promise<unknown>> => ({
  "fleet overview (90d)": () => getFleetOverview(db, { range: "90d", now }),
  ...Object.fromEntries(
    WORKSPACE_SORT_COLUMNS.map((sort) => [
      `workspaces page 1 by ${sort}`,
      () => listWorkspaces(db, FLEET, { now, sort }),
    ]),
  ),
  "workspace detail 90d": () => getWorkspaceDetail(db, FLEET, "ws-004242", { range: "90d", now }),
  "agent claude-code (90d)": () => getAgentDetail(db, "claude-code", { range: "90d", now }),
  "findings (first page)": () => listFindings(db, FLEET, { now }),
  // The whole exposition, text included, as GET /metrics writes it.
  "/metrics scrape": () => renderMetrics(db, now),
  "cleanup preview, whole fleet": () =>
    previewRun(
      db,
      { recipe: "claude-code-sessions", params: { olderThanDays: 30 }, scope: { all: true }, minAgeHours: 24 },
      { now },
    ),
});

/** The daily usage CSV of the whole fleet over the last EXPORT_DAYS days, written as the route writes it; rows/s. */
export async function exportRate(db: Db): Promise<{ rows: number; perSec: number }> {
  const t = performance.now();
  const exp = usageExport(
    db,
    FLEET,
    { range: "custom", from: addDaysTo(utcDayOf(now), 1 - EXPORT_DAYS), to: utcDayOf(now), granularity: "daily" },
    { now },
  );
  // PostgreSQL's COPY where the route uses it, as the route does.
  const reader = (exp.open ? await exp.open(() => {}) : await openCsvStream(exp)).getReader();
  let lines = -1; // the header
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const b of value) if (b === 10) lines++;
  }
  return { rows: lines, perSec: lines / ((performance.now() - t) / 1000) };
}

export async function explainPages(f: { explainDb: Db; pool: Pool }, log: (s: string) => void, plans: string[]) {
  log(`\nQuery plans at full size (EXPLAIN (ANALYZE, BUFFERS)); a sequential scan of a history table is marked !!:`);
  for (const [name, run] of Object.entries(pages(f.explainDb))) {
    capture = [];
    await run();
    const queries = capture.filter((c) => !/from "?(settings|finding_rules)"?/i.test(c.text));
    capture = null;
    log(`\n## ${name}: ${queries.length} queries`);
    plans.push(`## ${name}: ${queries.length} queries`);
    for (const c of queries) {
      const plan = (await f.pool.query(`explain (analyze, buffers) ${c.text}`, c.params)).rows.map(
        (r) => r["QUERY PLAN"] as string,
      );
      const scans = plan
        .filter((l) => /Scan|Execution Time/.test(l))
        .map((l) => {
          const seqHistory = /Seq Scan on (root_daily|workspace_daily|fleet_delta|reports|root_usage)/.test(l);
          return `${seqHistory ? "!! " : "   "}${l
            .replace(/\s+\(cost=[^)]*\)/, "")
            .replace(/\(actual time=[\d.]+\.\./, "(time=")
            .trim()}`;
        });
      plans.push(`\n${c.text}\n-- params: ${JSON.stringify(c.params)}\n${plan.join("\n")}\n`);
      log(`- ${c.text.replace(/\s+/g, " ").slice(0, 110)}…`);
      for (const l of scans) log(`  ${l}`);
    }
  }
}
