import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { CsvCellType } from "@/lib/csv/columns";
import { isSilent } from "@/lib/findings/silence";
import { silentHours } from "@/lib/findings/rules";
import { copyPool, openCopyCsv } from "../copy-csv";
import type { PageParts } from "../keyset";
import type { WorkspaceScope } from "../scope";
import type { Db } from "../types";
import { change7d, change7dJoin } from "./change-7d";
import { workspaceExportQuery } from "./export-workspaces";
import type { WorkspaceListParams } from "./workspace-list";
import type { RowContext } from "./workspace-row";
import { fullCondition, fullThresholds, volumeUsed } from "./volume";

// The workspaces CSV written by PostgreSQL's COPY (decision 0015, as the usage CSV of decision 0002): each cell
// formatted in SQL as the file writer formats the column of a row read by toRow (workspace-row.ts), so the file is
// the same to the byte; a test on PostgreSQL compares the two over hostile names. The columns' headers and kinds
// are the writer's own (lib/export/lists.ts); this module holds each header's SQL.

// encodeURIComponent's characters left as they are; every other one becomes its UTF-8 bytes as %XX.
const URI_KEPT = `A-Za-z0-9_.!~*'()-`;

/** encodeURIComponent in SQL: a name of kept characters only (nearly all) as it is, else character by character. */
function uriComponent(text: SQL): SQL {
  return sql`(case when ${text} ~ ${`^[${URI_KEPT}]*$`} then ${text} else (
    select string_agg(case when ch ~ ${`^[${URI_KEPT}]$`} then ch
      else upper(regexp_replace(encode(convert_to(ch, 'UTF8'), 'hex'), '(..)', '%\\1', 'g')) end, '' order by i)
    from regexp_split_to_table(${text}, '') with ordinality as t(ch, i)) end)`;
}

/** Math.round of a float8 (halves towards +infinity; SQL's round takes them away from zero), as int8. */
const jsRound = (x: SQL) => sql`(case when ${x} - floor(${x}) >= 0.5 then ceil(${x}) else floor(${x}) end)::int8`;

/** Each header's cell (alias w; c the 7-day change's join) as toRow and the writer make it. */
function cellsByHeader(ctx: RowContext): Record<string, SQL> {
  // toVolume's condition for a volume at all; without one every df column is empty.
  const hasVolume = sql`(w.volume_total_bytes is not null and w.volume_free_bytes is not null
    and ${volumeUsed("w")} is not null and w.volume_used_pct is not null)`;
  const ofVolume = (x: SQL) => sql`(case when ${hasVolume} then ${x} end)`;
  return {
    id: sql`w.id`,
    name: sql`w.name`,
    owner: sql`w.owner`,
    template: sql`w.template`,
    total_bytes: sql`w.total_bytes`,
    change_7d_bytes: change7d,
    root_count: sql`w.root_count`,
    largest_agent: sql`w.largest_agent`,
    largest_agent_bytes: sql`w.largest_agent_bytes`,
    volume_size_bytes: ofVolume(sql`w.volume_total_bytes`),
    volume_used_bytes: ofVolume(volumeUsed("w")),
    volume_avail_bytes: ofVolume(sql`w.volume_free_bytes`),
    volume_use_percent: ofVolume(sql`w.volume_used_pct`),
    inodes_use_percent: ofVolume(sql`w.volume_inodes_used_pct`),
    volume_full: ofVolume(fullCondition(fullThresholds(ctx.rules))),
    growth_bytes_per_day: jsRound(sql`w.growth_bytes_per_day::float8`),
    forecast_full_at: sql`w.forecast_full_at`,
    last_report_at: sql`w.last_collected_at`,
    silent: isSilent(silentHours(ctx.rules), sql`${ctx.now.toISOString()}::timestamptz`),
    coder_status: sql`w.coder_status`,
    dormant_at: sql`w.coder_dormant_at`,
    deleting_at: sql`w.coder_deleting_at`,
    last_used_at: sql`w.coder_last_used_at`,
    deleted_at: sql`w.deleted_at`,
    coder_url: ctx.coderUrl
      ? sql`${`${ctx.coderUrl}/@`} || ${uriComponent(sql`w.owner`)} || '/' || ${uriComponent(sql`w.name`)}`
      : sql`null::text`,
  };
}

/**
 * The workspaces CSV of `columns` (the writer's headers and kinds) through COPY, in the list's order under its
 * filters, or null on the embedded database (no COPY to a client). One COPY of every row: the list's order is
 * not the workspaces' ids, by which the usage CSV cuts its batches, and a fleet's workspaces are one COPY's worth.
 */
export function workspacesCopy(
  db: Db,
  scope: WorkspaceScope,
  params: WorkspaceListParams,
  columns: readonly { header: string; type: CsvCellType }[],
): ((onError: (err: unknown) => void) => Promise<ReadableStream<Uint8Array>>) | null {
  const pool = copyPool(db);
  if (!pool) return null;
  return async (onError) => {
    const { ctx, keys, where, since } = await workspaceExportQuery(db, scope, params);
    const cells = cellsByHeader(ctx);
    const sqlColumns = columns.map((c) => {
      const expr = cells[c.header];
      if (!expr) throw new Error(`the workspaces CSV's column ${c.header} has no SQL`);
      return { ...c, expr };
    });
    // The 7-day change of every workspace: kept in its row, looked up where the kept day is not this one.
    const source = {
      keys,
      batched: false,
      page: (select: SQL, p: PageParts) => sql`select ${select}
        from workspaces w ${change7dJoin(since)}
        where ${where} and ${p.after} order by ${p.order} limit ${p.limit}`,
    };
    return openCopyCsv(
      pool,
      sqlColumns,
      async function* () {
        yield source;
      },
      { onError },
    );
  };
}
