// Test helpers that read the roll-ups back: row counts and the fleet roll-up's levels.
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { rowsOf } from "@/lib/db/types";

export const rows = async <T>(db: Db, q: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(q));

export const count = async (db: Db, table: string) =>
  Number((await rows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${table}`)))[0].n);

/** The fleet roll-up's level per agent on `day`: the sum of every change up to it. */
export async function fleetLevels(db: Db, day: string) {
  const r = await rows<{ agent: string; bytes: number; roots: number }>(
    db,
    sql`select agent, sum(bytes)::float8 as bytes, sum(roots)::int as roots from fleet_delta
      where day <= ${day}::date group by agent having sum(bytes) <> 0 or sum(roots) <> 0 order by agent`,
  );
  return Object.fromEntries(r.map((x) => [x.agent, { bytes: Number(x.bytes), roots: x.roots }]));
}

/** One workspace's root_daily values on `day`, by root key. */
export async function dailyRoots(db: Db, ws: string, day: string) {
  const r = await rows<{ key: string; bytes: number }>(
    db,
    sql`select root_key as key, bytes::float8 as bytes from root_daily where workspace_id = ${ws} and day = ${day}::date order by 1`,
  );
  return Object.fromEntries(r.map((x) => [x.key, Number(x.bytes)]));
}
