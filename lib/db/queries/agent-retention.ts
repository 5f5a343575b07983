import "server-only";
import { sql } from "drizzle-orm";
import { effectiveRetention, retentionText, RETENTION_AGENTS } from "@/lib/catalog/retention";
import type { AgentRetention } from "@/lib/report-format/schema";
import { olderBytes } from "@/lib/findings/age-buckets";
import { notDeleted } from "../deleted";
import { rowsOf, type Db } from "../types";

/** One retention an agent has across the fleet: how many workspaces have it, and their data older than 30 days. */
export type RetentionShare = {
  /** "keeps 90 days (cleanupPeriodDays 90)". */
  text: string;
  known: boolean;
  workspaces: number;
  olderBytes: number;
};

/**
 * The agent's retention across the workspaces that have its own folder, most common first: the settings on each
 * workspace (from its newest report) grouped as they are, then worded; settings that word alike are one share.
 * Empty for agents whose retention is not known.
 */
export async function retentionShares(db: Db, agent: string): Promise<RetentionShare[]> {
  if (!(RETENTION_AGENTS as readonly string[]).includes(agent)) return [];
  // SQL through db.execute: it groups by an expression holding a parameter (the agent), which only `group by 1, 2`
  // names (the query builder repeats the expression, a second parameter Postgres cannot match to the first).
  const rows = rowsOf<{ setting: unknown; reported: boolean; workspaces: number; older: number }>(
    await db.execute(sql`select w.agent_retention -> ${agent}::text as setting, w.agent_retention is not null as reported,
        count(*)::int as workspaces, sum(${olderBytes(sql`r.ages`)})::float8 as older
      from root_latest r join workspaces w on w.id = r.workspace_id
      where r.agent = ${agent} and r.kind = 'tool' and r.root_key = ${`${agent}:data`} and ${notDeleted}
      group by 1, 2`),
  );
  const shares = new Map<string, RetentionShare>();
  for (const row of rows) {
    const settings = row.reported ? ({ [agent]: row.setting ?? undefined } as AgentRetention) : null;
    const r = effectiveRetention(agent, settings)!;
    const text = retentionText(r);
    const share = shares.get(text) ?? { text, known: r.known, workspaces: 0, olderBytes: 0 };
    share.workspaces += Number(row.workspaces);
    share.olderBytes += Number(row.older);
    shares.set(text, share);
  }
  return [...shares.values()].sort((a, b) => b.workspaces - a.workspaces || a.text.localeCompare(b.text));
}
