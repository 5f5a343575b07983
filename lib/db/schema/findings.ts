import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { workspaces } from "./workspaces";

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

/**
 * The findings of the rules over the latest roots (scope "root"), kept so that a fleet page reads them instead
 * of evaluating every rule over every root at each request: as the lists show them, one row per rule,
 * workspace and agent, with their count, total, highest urgency and most urgent members. Ingest rewrites a
 * workspace's rows in the report's transaction; a change of a rule's thresholds, start and maintenance rewrite
 * a rule's rows for the whole fleet (lib/db/queries/kept-findings.ts). Rows of every such rule, enabled or not.
 */
export const keptFindings = pgTable(
  "kept_findings",
  {
    ruleId: text("rule_id").notNull(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** The agent, '' for none: the group's key. */
    agentKey: text("agent_key").notNull(),
    agent: text("agent"),
    /** How many findings the row groups, and the sum of their values. */
    n: integer("n").notNull(),
    total: doublePrecision("total").notNull(),
    /** The most urgent finding's urgency. */
    urgency: doublePrecision("urgency").notNull(),
    /** The most urgent findings, at most GROUP_MEMBERS_SHOWN: [{ rootKey, path, value, threshold }]. */
    members: jsonb("members").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.ruleId, t.agentKey] }),
    // A rule's groups in the lists' order (GROUP_ORDER, whose severity and rule are the same for all of them):
    // a page's most urgent groups of each rule are the first rows of its range, not a sort of all of them.
    index("kept_findings_rule_order_idx").on(
      t.ruleId,
      t.urgency.desc().nullsFirst(),
      sql`${t.workspaceId} collate "C"`,
      sql`${t.agentKey} collate "C"`,
    ),
  ],
);

/**
 * Which rules' kept findings are current: the signature of the rule's SQL and thresholds they were computed
 * with. A rule whose signature differs from the running code's (an upgrade, thresholds saved by an instance of
 * another version) is evaluated at each request until its rows are rewritten.
 */
export const keptFindingRules = pgTable("kept_finding_rules", {
  ruleId: text("rule_id").primaryKey(),
  signature: text("signature").notNull(),
  refreshedAt: timestamp("refreshed_at", { withTimezone: true }).notNull(),
});
