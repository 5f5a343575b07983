import "server-only";
import { sql } from "drizzle-orm";
import type { HomeFolder } from "@/lib/report-format/home";
import { rowsOf, type Db } from "../types";
import { workspaceFilter } from "./rule-rows";
import { growthSinceDay, grownRoots } from "./root-growth";

// Why a volume at risk fills, for the at-risk page: what a full volume holds (its largest roots and the home's
// largest folders, as the workspace page shows them; the roots with most files when it is out of inodes) and what
// a filling one grew by over 7 days (its roots that grew, and the growth of df's Used that no root accounts for).

/** How many roots and folders a volume's "why" names. */
const NAMED = 3;

/** A root that grew over the last 7 days, what makes its volume fill. */
export type GrowingRoot = { rootKey: string; agent: string; growthBytes: number };

/** A root as its newest report measured it: du's bytes and its files and folders (each takes an inode). */
export type SizedRoot = { rootKey: string; agent: string; bytes: number; inodes: number };

export type VolumeWhy = {
  /** The largest roots by bytes, largest first. */
  largestRoots: SizedRoot[];
  /** The roots with most files and folders, most first. */
  mostInodesRoots: SizedRoot[];
  /** The home's largest folders outside the roots (du -s each), from the newest report; [] without a home. */
  homeFolders: HomeFolder[];
  /** The roots that grew most over 7 days, largest growth first. */
  growingRoots: GrowingRoot[];
  /**
   * How much df's Used grew over 7 days beyond the roots' growth: files outside the measured roots (project
   * dependencies, build output, ...). Null without the volume's value 7 days ago.
   */
  outsideGrowthBytes: number | null;
};

const byWorkspace = <T>(rows: (T & { workspace_id: string })[]): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(r.workspace_id, [...(out.get(r.workspace_id) ?? []), r]);
  return out;
};

/** Why each of the volumes of `ids` fills, by workspace id (every id has an entry). */
export async function volumesWhy(db: Db, ids: string[], now: Date): Promise<Map<string, VolumeWhy>> {
  const out = new Map<string, VolumeWhy>();
  if (ids.length === 0) return out;
  const [sized, grown, volumes] = await Promise.all([
    sizedRoots(db, ids),
    grownByWorkspace(db, ids, now),
    ofVolumes(db, ids, now),
  ]);
  for (const id of ids) {
    const roots = sized.get(id) ?? [];
    const v = volumes.get(id);
    out.set(id, {
      largestRoots: roots.filter((r) => r.byBytes <= NAMED).map(sizedRoot),
      mostInodesRoots: roots
        .filter((r) => r.byInodes <= NAMED)
        .sort((a, b) => a.byInodes - b.byInodes)
        .map(sizedRoot),
      homeFolders: (v?.folders ?? []).slice(0, NAMED),
      growingRoots: grown.get(id) ?? [],
      outsideGrowthBytes: v?.outside ?? null,
    });
  }
  return out;
}

type SizedRow = {
  workspace_id: string;
  root_key: string;
  agent: string;
  bytes: number;
  inodes: number;
  byBytes: number;
  byInodes: number;
};

const sizedRoot = (r: SizedRow): SizedRoot => ({
  rootKey: r.root_key,
  agent: r.agent,
  bytes: Number(r.bytes),
  inodes: Number(r.inodes),
});

/** Each workspace's roots that are among its NAMED largest by bytes or by inodes, by bytes. */
async function sizedRoots(db: Db, ids: string[]) {
  const rows = rowsOf<SizedRow>(
    await db.execute(sql`select * from (
        select workspace_id, root_key, agent, bytes::float8 as bytes, (files + dirs)::float8 as inodes,
          row_number() over (partition by workspace_id order by bytes desc, root_key)::int as "byBytes",
          row_number() over (partition by workspace_id order by files + dirs desc, root_key)::int as "byInodes"
        from root_latest where true ${workspaceFilter(sql`workspace_id`, ids)}) r
      where "byBytes" <= ${NAMED} or "byInodes" <= ${NAMED} order by workspace_id, "byBytes"`),
  );
  return byWorkspace(rows);
}

/** The NAMED roots of each workspace that grew most over the last 7 days, by root_daily's key. */
async function grownByWorkspace(db: Db, ids: string[], now: Date): Promise<Map<string, GrowingRoot[]>> {
  const only = sql`true ${workspaceFilter(sql`l.workspace_id`, ids)}`;
  const rows = rowsOf<{ workspace_id: string; root_key: string; agent: string; growth: number }>(
    await db.execute(sql`select workspace_id, root_key, agent, growth::float8 as growth from (
        select g.*, row_number() over (partition by g.workspace_id order by g.growth desc, g.root_key) as n
        from (${grownRoots(growthSinceDay(now), only)}) g) t where n <= ${NAMED} order by workspace_id, n`),
  );
  const out = new Map<string, GrowingRoot[]>();
  for (const [id, list] of byWorkspace(rows))
    out.set(
      id,
      list.map((r) => ({ rootKey: r.root_key, agent: r.agent, growthBytes: Number(r.growth) })),
    );
  return out;
}

/**
 * Each volume's home folders and the growth of its Used since the day 7 days ago less its roots' (workspace_daily's
 * bytes are the roots' total that day, the workspaces row's now).
 */
async function ofVolumes(db: Db, ids: string[], now: Date) {
  const rows = rowsOf<{ id: string; folders: HomeFolder[] | null; outside: number | null }>(
    await db.execute(sql`select w.id, w.home->'largest' as folders,
        (coalesce(w.volume_used_bytes, w.volume_total_bytes - w.volume_free_bytes)
          - coalesce(d.volume_used_bytes, d.volume_total_bytes - d.volume_free_bytes)
          - (w.total_bytes - d.bytes))::float8 as outside
      from workspaces w left join workspace_daily d on d.workspace_id = w.id and d.day = ${growthSinceDay(now)}::date
      where true ${workspaceFilter(sql`w.id`, ids)}`),
  );
  return new Map(
    rows.map((r) => [r.id, { folders: r.folders ?? [], outside: r.outside === null ? null : Number(r.outside) }]),
  );
}
