import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../types";

// A rewrite of a kept table for the whole fleet, a range of workspace ids at a time: each statement reads and
// sorts one range's rows (by root_latest's key, whose first column is the workspace) instead of the whole latest
// table at once. At 100,000 workspaces x 30 roots the kept findings' one statement ran past the statement
// timeout and spilled its sorts to disk (docs/decisions/0008-fleet-rewrites-in-ranges.md).

/** Workspace ids from `from` (inclusive) to `to` (exclusive); null: open on that side. */
export type WorkspaceRange = { from: string | null; to: string | null };

/** How many workspaces a range holds: 150,000 root rows at 30 roots a workspace. */
export const RANGE_WORKSPACES = 5_000;

/** The whole set of workspace ids cut into consecutive ranges of about `size` workspaces, in the ids' order. */
export async function workspaceRanges(db: Db, size = RANGE_WORKSPACES): Promise<WorkspaceRange[]> {
  // Every size-th id, read once along the primary key's index.
  const bounds = rowsOf<{ id: string }>(
    await db.execute(sql`select id from (select id, row_number() over (order by id) as n from workspaces) w
      where n > 1 and (n - 1) % ${size} = 0 order by id`),
  ).map((r) => r.id);
  const edges = [null, ...bounds, null];
  return edges.slice(1).map((to, i) => ({ from: edges[i], to }));
}
