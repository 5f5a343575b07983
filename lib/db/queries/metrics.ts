import "server-only";
import { sql } from "drizzle-orm";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import { silentHours } from "@/lib/findings/rules";
import { isSilent } from "@/lib/findings/silence";
import { notDeleted } from "../deleted";
import { FLEET } from "../scope";
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
async function agentBytes(db: Db) {
  const rows = rowsOf<{ agent: string; bytes: number }>(
    await db.execute(sql`select key as agent, bytes from (${await seriesNow(db)}) s`),
  );
  return rows.map((r) => ({ agent: r.agent, bytes: Number(r.bytes) }));
}

async function templateCounts(db: Db, hours: number, now: Date): Promise<TemplateCounts[]> {
  const silent = isSilent(hours, sql`${now.toISOString()}::timestamptz`);
  const rows = rowsOf<{ template: string; workspaces: number; reporting: number; silent: number }>(
    await db.execute(sql`select coalesce(w.template, '') as template, count(*)::int as workspaces,
        count(w.last_collected_at)::int as reporting, (count(*) filter (where ${silent}))::int as silent
      from workspaces w where ${notDeleted} group by 1 order by 1`),
  );
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
    db.execute(sql`select coalesce(sum(j.bytes_acted), 0)::float8 as bytes
      from cleanup_jobs j join cleanup_runs r on r.id = j.run_id where not r.dry_run`),
  ]);
  return {
    jobs: rowsOf<{ state: ShownJobState; jobs: number }>(states).map((r) => ({ state: r.state, jobs: Number(r.jobs) })),
    freedBytes: Number(rowsOf<{ bytes: number }>(freed)[0].bytes),
  };
}

/**
 * Every workspace's volume as its newest report gave it, one reading per owner and name (the series' labels):
 * where a name was reused (a workspace deleted and made again), the one that reported last.
 */
async function volumes(db: Db): Promise<VolumeReading[]> {
  const rows = rowsOf<{
    name: string;
    owner: string;
    used: number;
    avail: number;
    iused: number | null;
    ifree: number | null;
  }>(
    await db.execute(sql`select distinct on (w.owner, w.name) w.name, w.owner, ${volumeUsed("w")}::float8 as used,
        w.volume_free_bytes::float8 as avail, w.volume_inodes_used::float8 as iused,
        w.volume_inodes_free::float8 as ifree
      from workspaces w where ${notDeleted} and w.volume_free_bytes is not null and ${volumeUsed("w")} is not null
      order by w.owner, w.name, w.last_collected_at desc nulls last, w.id`),
  );
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
