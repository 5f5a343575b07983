import { sql } from "drizzle-orm";
import { bigint, index, pgSequence, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces";

/** Numbers each mark of kept_pending: a refresher removes a mark only if no report marked the workspace again since. */
export const keptPendingVersion = pgSequence("kept_pending_version_seq");

/**
 * The workspaces whose kept aggregates (kept findings, workspace series, root growth and agents) are behind their
 * latest roots: a report marks its workspace here in its own transaction and the refresher (lib/ingest/kept-refresh.ts)
 * rewrites many workspaces' rows together after the acknowledgement, then removes their marks. A mark outlives a
 * crash between the two, so nothing accepted is left out of the aggregates.
 */
export const keptPending = pgTable(
  "kept_pending",
  {
    workspaceId: text("workspace_id")
      .primaryKey()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    version: bigint("version", { mode: "number" })
      .notNull()
      .default(sql`nextval('kept_pending_version_seq')`),
    // The first unrefreshed report's time: the aggregates hold every report stored before the oldest mark.
    markedAt: timestamp("marked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("kept_pending_marked_at_idx").on(t.markedAt)],
);
