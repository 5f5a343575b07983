import "server-only";
import { and, eq, isNotNull, not, sql } from "drizzle-orm";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import { silentHours } from "@/lib/findings/rules";
import { isSilent } from "@/lib/findings/silence";
import { notDeleted, workspacesAsW } from "../deleted";
import { FLEET } from "../scope";
import { cleanupJobs as jobs, cleanupRuns } from "../schema";
import { rowsOf, type Db } from "../types";
import { shownJobState } from "./cleanup-job-state";
import { countFindings, getRules, type FindingCounts } from "./findings";
import { seriesNow } from "./workspace-series";
import { volumeUsed } from "./volume";

// What /metrics reports about the fleet, read at each scrape from what the pages read (the workspaces table,
// root_latest, the findings' counts, the cleanup jobs), never from history. Workspaces deleted in Coder are left
// out, as the pages leave them out.

export type TemplateCounts = { template: string; workspaces: number; reporting: number; silent: number };
export type VolumeReading = {
  workspace: string;
  owner: string;
  usedBytes: number;
  availBytes: number;
  /** df -i's IUsed ÷ (IUsed + IFree); null when the reporter sent no inode counts (before 0.2). */
  inodesUsedRatio: number | null;
};

export type FleetMetrics = {
  /** Bytes now by agent, grouped as the fleet chart groups them (an agent, "modules", "script-data", "other"). */
  agents: { agent: string; bytes: number }[];
  /** Enrolled, reporting and silent workspaces by template ("" for none). */
  templates: TemplateCounts[];
  /** What silent means: the silent-workspace rule's hours. */
  silentHours: number;
  findings: FindingCounts["bySeverity"];
  /** Cleanup jobs of the runs still kept, by the state the pages show. */
  jobs: { state: ShownJobState; jobs: number }[];
  /** Bytes the kept runs' jobs removed (dry runs, which remove nothing, left out). */
  freedBytes: number;
  volumes: VolumeReading[];
};

/**
 * The fleet chart's series now (the overview's top agents, all of them), from the kept series of each workspace
 * (workspace-series.ts).
 */
// Through db.execute: the fleet chart's series now (seriesNow) is SQL shared with the chart, and a job's shown
// state holds a parameter (now), which only `group by 1` can name (a repeated expression is a second parameter).
async function agentBytes(db: Db) {
  const rows = rowsOf<{ agent: string; bytes: number }>(
    await db.execute(sql`select key as agent, bytes from (${await seriesNow(db)}) s`),
  );
  return rows.map((r) => ({ agent: r.agent, bytes: Number(r.bytes) }));
}

async function templateCounts(db: Db, hours: number, now: Date): Promise<TemplateCounts[]> {
  const silent = isSilent(hours, sql`${now.toISOString()}::timestamptz`);
  const w = workspacesAsW;
  const template = sql<string>`coalesce(${w.template}, '')`;
  const rows = await db
    .select({
      template,
      workspaces: sql<number>`count(*)::int`,
      reporting: sql<number>`count(${w.lastCollectedAt})::int`,
      silent: sql<number>`(count(*) filter (where ${silent}))::int`,
    })
    .from(w)
    .where(notDeleted)
    .groupBy(template)
    .orderBy(template);
  return rows.map((r) => ({
    template: r.template,
    workspaces: Number(r.workspaces),
    reporting: Number(r.reporting),
    silent: Number(r.silent),
  }));
}

async function cleanupJobs(db: Db, now: Date) {
  const [states, freed] = await Promise.all([
    db.execute(sql`select ${shownJobState("j", now)} as state, count(*)::int as jobs
      from cleanup_jobs j group by 1 order by 1`),
    db
      .select({ bytes: sql<number>`coalesce(sum(${jobs.bytesActed}), 0)::float8` })
      .from(jobs)
      .innerJoin(cleanupRuns, eq(cleanupRuns.id, jobs.runId))
      .where(not(cleanupRuns.dryRun)),
  ]);
  return {
    jobs: rowsOf<{ state: ShownJobState; jobs: number }>(states).map((r) => ({ state: r.state, jobs: Number(r.jobs) })),
    freedBytes: Number(freed[0].bytes),
  };
}

/**
 * Every workspace's volume as its newest report gave it, one reading per owner and name (the series' labels):
 * where a name was reused (a workspace deleted and made again), the one that reported last.
 */
async function volumes(db: Db): Promise<VolumeReading[]> {
  const w = workspacesAsW;
  const rows = await db
    .selectDistinctOn([w.owner, w.name], {
      name: w.name,
      owner: w.owner,
      used: sql<number>`${volumeUsed("w")}::float8`,
      avail: sql<number>`${w.volumeFreeBytes}::float8`,
      iused: sql<number | null>`${w.volumeInodesUsed}::float8`,
      ifree: sql<number | null>`${w.volumeInodesFree}::float8`,
    })
    .from(w)
    .where(and(notDeleted, isNotNull(w.volumeFreeBytes), sql`${volumeUsed("w")} is not null`))
    .orderBy(w.owner, w.name, sql`${w.lastCollectedAt} desc nulls last`, w.id);
  return rows.map((r) => {
    const [iused, ifree] = [r.iused === null ? null : Number(r.iused), r.ifree === null ? null : Number(r.ifree)];
    return {
      workspace: r.name,
      owner: r.owner,
      usedBytes: Number(r.used),
      availBytes: Number(r.avail),
      inodesUsedRatio: iused !== null && ifree !== null && iused + ifree > 0 ? iused / (iused + ifree) : null,
    };
  });
}

export async function getFleetMetrics(db: Db, now: Date = new Date()): Promise<FleetMetrics> {
  const rules = await getRules(db);
  const hours = silentHours(rules);
  const [agents, templates, findings, cleanup, vols] = await Promise.all([
    agentBytes(db),
    templateCounts(db, hours, now),
    countFindings(db, FLEET, { now, rules }),
    cleanupJobs(db, now),
    volumes(db),
  ]);
  return { agents, templates, silentHours: hours, findings: findings.bySeverity, ...cleanup, volumes: vols };
}
