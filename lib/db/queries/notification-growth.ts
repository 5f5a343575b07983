import "server-only";
import { sql } from "drizzle-orm";
import type { GrownFile } from "@/lib/notify/decide";
import { rowsOf, type Db } from "../types";

// The growing file notice's facts (lib/notify/decide.ts): the files among each root's largest entries in the
// newest report that grew by more than a threshold since the report about a day earlier.

/** How many grown files a workspace's facts carry at most (a notice names three). */
const GROWN_FILES = 10;

type Row = { workspace_id: string; agent: string; path: string; bytes: string; growth: string };

/**
 * The grown files of `ids`, most growth first. The earlier report is the newest collected between two days and
 * one day before the newest root's report. A file in both reports grew by the difference; a file that is not among
 * that report's largest entries was at most as large as the smallest of them (the reporter lists the largest by
 * bytes), so it grew by at least its size less that one. A root the earlier report did not list, or listed without
 * entries (a reporter that sent none), says nothing.
 */
export async function grownFiles(db: Db, ids: string[], minGrowth: number): Promise<Map<string, GrownFile[]>> {
  const out = new Map<string, GrownFile[]>();
  if (ids.length === 0) return out;
  // jsonb arrays compared entry by entry, per workspace: SQL through db.execute.
  const rows = rowsOf<Row>(
    await db.execute(sql`with newest as (
        select workspace_id, max(collected_at) as at from root_latest
        where workspace_id in (select unnest(${sql.param(ids)}::text[])) group by workspace_id
      ), earlier as (
        select n.workspace_id, e.id, e.collected_at from newest n cross join lateral (
          select r.id, r.collected_at from reports r where r.workspace_id = n.workspace_id
            and r.collected_at <= n.at - interval '1 day' and r.collected_at > n.at - interval '2 days'
          order by r.collected_at desc limit 1) e
      ), grown as (
        select l.workspace_id, l.agent, l.path || '/' || (f ->> 'path') as path, (f ->> 'bytes')::bigint as bytes,
          (f ->> 'bytes')::bigint - coalesce(before.bytes, smallest.bytes) as growth
        from earlier e
        join root_usage u on u.collected_at = e.collected_at and u.workspace_id = e.workspace_id and u.report_id = e.id
        join root_latest l on l.workspace_id = u.workspace_id and l.root_key = u.root_key
        cross join lateral jsonb_array_elements(l.largest) f
        cross join lateral (select min((x ->> 'bytes')::bigint) as bytes from jsonb_array_elements(u.largest) x) smallest
        left join lateral (select (x ->> 'bytes')::bigint as bytes from jsonb_array_elements(u.largest) x
          where x ->> 'path' = f ->> 'path' and x ->> 'pathEncoding' is not distinct from f ->> 'pathEncoding'
          limit 1) before on true
        where f ->> 'type' in ('file', 'session') and smallest.bytes is not null
      )
      select workspace_id, agent, path, bytes::text, growth::text from (
        select g.*, row_number() over (partition by workspace_id order by growth desc, path) as n
        from grown g where growth > ${minGrowth}
      ) t where n <= ${GROWN_FILES} order by workspace_id, growth desc, path`),
  );
  for (const r of rows) {
    const list = out.get(r.workspace_id) ?? [];
    list.push({ agent: r.agent, path: r.path, bytes: Number(r.bytes), growth: Number(r.growth) });
    out.set(r.workspace_id, list);
  }
  return out;
}
