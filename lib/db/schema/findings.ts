import { boolean, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Admins' changes to the findings rules. Only overrides are stored: a rule without a row runs with its
 * defaults from lib/findings/rules/, so new rules and new defaults arrive with an upgrade.
 */
export const findingRules = pgTable("finding_rules", {
  id: text("id").primaryKey(),
  /** Null: the default. */
  enabled: boolean("enabled"),
  severity: text("severity"),
  params: jsonb("params"),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
