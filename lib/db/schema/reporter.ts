import { customType, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

// node-postgres reads bytea as a Buffer, PGlite as a Uint8Array: one type for both.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Every reporter bundle this dashboard has served, by version: the one a release bundles is stored at start, so
 * after an upgrade the previous version stays servable to the workspaces an admin pins or stages
 * (lib/services/reporter-rollout.ts). A few rows of under a megabyte each; the oldest beyond a handful are dropped.
 */
export const reporterReleases = pgTable("reporter_releases", {
  version: text("version").primaryKey(),
  sha256: text("sha256").notNull(),
  size: integer("size").notNull(),
  bytes: bytea("bytes").notNull(),
  firstSeen: timestamp("first_seen", { withTimezone: true }).notNull().defaultNow(),
});
