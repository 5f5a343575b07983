import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../types";

/**
 * Units a part of a result's list holds: about 330 KB of JSON at most, so that sending one (the driver copies a
 * parameter into its buffer in one go) takes milliseconds. A list sent whole, 44 MB, held the event loop a second.
 */
const UNITS_A_PART = 1_000;

/**
 * Sends long JSON lists (each element already serialized) in bounded parts to a table that lives until the
 * transaction ends, awaiting each: `stagedList` then assembles a list inside the database. Call within a
 * transaction; nothing is stored if it rolls back.
 */
export async function stageLists(tx: Db, lists: Record<string, string[]>) {
  await tx.execute(
    sql`create temp table if not exists result_list_parts (list text not null, seq integer not null, part text not null) on commit drop`,
  );
  for (const [list, items] of Object.entries(lists)) {
    for (let start = 0; start < items.length; start += UNITS_A_PART) {
      const part = items.slice(start, start + UNITS_A_PART).join(",");
      await tx.execute(sql`insert into result_list_parts (list, seq, part) values (${list}, ${start}, ${part})`);
    }
  }
}

/** A list staged by `stageLists`, as jsonb: its parts joined in order (an empty list when none were sent). */
export function stagedList(list: string): SQL {
  return sql`(select ('[' || coalesce(string_agg(part, ',' order by seq), '') || ']')::jsonb from result_list_parts where list = ${list})`;
}
