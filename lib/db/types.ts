import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/** Either database (embedded or server), or a transaction on one: every query function takes this first. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a `db.execute(sql...)` result: both drivers answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
