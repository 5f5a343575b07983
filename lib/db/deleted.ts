import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { workspaces } from "./schema";

// Workspaces deleted in Coder (workspaces.deleted_at, set by the workspace sync) leave every fleet figure: totals,
// the chart, lists, agents, findings and cleanup. Their history stays browsable until retention expires it.

/** The workspace (alias w) is not deleted in Coder. */
export const notDeleted = sql`w.deleted_at is null`;

/** The workspaces table as alias w, for the query builder's queries that filter with the fragments written for it. */
export const workspacesAsW = alias(workspaces, "w");

/**
 * A row of another table (root_latest, ...) whose workspace id is `column` belongs to a workspace not deleted in
 * Coder: the deleted are few (workspaces_deleted_idx), so this is one small hashed list per query.
 */
export const ofLiveWorkspace = (column: SQL): SQL =>
  sql`${column} not in (select id from workspaces where deleted_at is not null)`;
