import "server-only";
import { and, eq, isNotNull, not, sql, type SQL } from "drizzle-orm";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import { silentHours, type RuleSet } from "@/lib/findings/rules";
import { isSilent } from "@/lib/findings/silence";
import { notDeleted, workspacesAsW } from "../deleted";
import { FLEET } from "../scope";
import { cleanupJobs as jobs, cleanupRuns } from "../schema";
import { rowsOf, type Db } from "../types";
import { shownJobState } from "./cleanup-job-state";
import { countFindings, getRules, type FindingCounts } from "./findings";
import { seriesNow } from "./workspace-series";
import { fullConditions, fullThresholds, volumeUsed } from "./volume";
import { atRiskCondition } from "./volumes-at-risk";

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

/** Volumes at risk of one template ("" for none), as the volumes-at-risk page counts them, by what threatens them. */
export type AtRiskCounts = { template: string; space: number; inodes: number; filling: number };

/**
 * Whose volumes get series of their own: "at-risk", those the volumes-at-risk page lists (full, or filling within
 * the volume-filling rule's days); "all", every workspace's (two or three series a workspace).
 */
export type VolumeSeries = "at-risk" | "all";

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
  /** Volumes at risk by template, every template of `templates` included (zeros where none is). */
  atRisk: AtRiskCounts[];
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

/** The page's horizon for a filling volume: the volume-filling rule's days (the page keeps them while it is off). */
const fillingDays = (rules: RuleSet) => rules["volume-filling"].params.days;

/**
 * The volumes at risk by template: out of space, out of inodes (and not of space), filling (not yet full). One
 * pass over the workspaces table, as the at-risk page's count.
 */
async function atRiskCounts(db: Db, rules: RuleSet, now: Date): Promise<AtRiskCounts[]> {
  const { isFull, where } = atRiskCondition(rules, now, fillingDays(rules));
  const { space, inodes } = fullConditions(fullThresholds(rules));
  const template = sql<string>`coalesce(${workspacesAsW.template}, '')`;
  const rows = await db
    .select({
      template,
      space: sql<number>`(count(*) filter (where ${space}))::int`,
      inodes: sql<number>`(count(*) filter (where ${inodes}))::int`,
      filling: sql<number>`(count(*) filter (where not ${isFull}))::int`,
    })
    .from(workspacesAsW)
    .where(where)
    .groupBy(template);
  return rows.map((r) => ({
    template: r.template,
    space: Number(r.space),
    inodes: Number(r.inodes),
    filling: Number(r.filling),
  }));
}

/** Every template's counts, zeros where none is at risk, so a panel or a rule never sees a series appear from nothing. */
function everyTemplate(templates: TemplateCounts[], atRisk: AtRiskCounts[]): AtRiskCounts[] {
  const found = new Map(atRisk.map((r) => [r.template, r]));
  return templates.map(({ template }) => found.get(template) ?? { template, space: 0, inodes: 0, filling: 0 });
}

/**
 * The volumes `which` names as their newest report gave them, one reading per owner and name (the series'
 * labels): where a name was reused (a workspace deleted and made again), the one that reported last.
 */
async function volumes(db: Db, which: SQL): Promise<VolumeReading[]> {
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
    .where(and(notDeleted, which, isNotNull(w.volumeFreeBytes), sql`${volumeUsed("w")} is not null`))
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

export async function getFleetMetrics(db: Db, now: Date, series: VolumeSeries): Promise<FleetMetrics> {
  const rules = await getRules(db);
  const hours = silentHours(rules);
  const which = series === "all" ? sql`true` : atRiskCondition(rules, now, fillingDays(rules)).where;
  const [agents, templates, findings, cleanup, atRisk, vols] = await Promise.all([
    agentBytes(db),
    templateCounts(db, hours, now),
    countFindings(db, FLEET, { now, rules }),
    cleanupJobs(db, now),
    atRiskCounts(db, rules, now),
    volumes(db, which),
  ]);
  return {
    agents,
    templates,
    silentHours: hours,
    findings: findings.bySeverity,
    ...cleanup,
    atRisk: everyTemplate(templates, atRisk),
    volumes: vols,
  };
}
