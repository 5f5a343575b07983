import { bigint, index, integer, pgTable, real, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

const big = (name: string) => bigint(name, { mode: "number" });

export const workspaces = pgTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    owner: text("owner").notNull(),
    template: text("template"),
    agentName: text("agent_name"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    // Denormalised from the newest report so the workspaces table is one indexed read at any fleet size.
    lastReportId: uuid("last_report_id"),
    lastCollectedAt: timestamp("last_collected_at", { withTimezone: true }),
    volumeTotalBytes: big("volume_total_bytes"),
    volumeFreeBytes: big("volume_free_bytes"),
    totalBytes: big("total_bytes").notNull().default(0),
    rootCount: integer("root_count").notNull().default(0),
    largestAgent: text("largest_agent"),
    largestAgentBytes: big("largest_agent_bytes"),
    /** Bytes per day from a linear fit over recent reports (predict_linear). */
    growthBytesPerDay: real("growth_bytes_per_day"),
    /** When the volume fills at that rate; null when it is not growing. */
    forecastFullAt: timestamp("forecast_full_at", { withTimezone: true }),
  },
  (t) => [
    index("workspaces_owner_idx").on(t.owner),
    index("workspaces_template_idx").on(t.template),
    index("workspaces_total_idx").on(t.totalBytes.desc()),
    index("workspaces_last_collected_idx").on(t.lastCollectedAt),
  ],
);

/** One token per workspace, stored as a SHA-256 hash: tokens are 256 random bits, so a slow hash adds nothing. */
export const workspaceTokens = pgTable("workspace_tokens", {
  workspaceId: text("workspace_id")
    .primaryKey()
    .references(() => workspaces.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull(),
  issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex("workspace_tokens_hash_idx").on(t.tokenHash)]);

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
