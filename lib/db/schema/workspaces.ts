import { sql } from "drizzle-orm";
import type { HomeUsage } from "@/lib/report-format/home";
import type { Persistence } from "@/lib/report-format/persistence";
import type { AgentRetention } from "@/lib/report-format/schema";
import type { UnverifiedWorkspace } from "@/lib/coder/unverified";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const big = (name: string) => bigint(name, { mode: "number" });

/**
 * Whether a workspace (its `persistence` column) loses something at a restart: its home, or a root its reporter
 * placed on storage lost at a stop. The restart risk's page reads its workspaces by this condition, through the
 * index below on it: written with the row by the database itself, never stale.
 */
// One coalesce around the whole: the planner estimates a bare OR arm by arm, but this by the index's statistics.
export const losesAtRestart = (persistence: unknown) =>
  sql`coalesce(${persistence} -> 'home' ->> 'verdict' = 'not-persistent'
    or jsonb_path_exists(${persistence} -> 'roots', '$.* ? (@.verdict == "not-persistent")'), false)`;

export const workspaces = pgTable(
  "workspaces",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    owner: text("owner").notNull(),
    template: text("template"),
    /** Coder's organization of the workspace (its id), kept by the workspace sync; null until a sync saw it. */
    organizationId: text("organization_id"),
    agentName: text("agent_name"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    // Denormalised from the newest report so the workspaces table is one indexed read at any fleet size.
    lastReportId: uuid("last_report_id"),
    lastCollectedAt: timestamp("last_collected_at", { withTimezone: true }),
    /** df's Size, Avail and Used; Used is null in reports from reporters before 0.2 (then Size − Avail). */
    volumeTotalBytes: big("volume_total_bytes"),
    volumeFreeBytes: big("volume_free_bytes"),
    volumeUsedBytes: big("volume_used_bytes"),
    volumeInodesTotal: big("volume_inodes_total"),
    volumeInodesUsed: big("volume_inodes_used"),
    volumeInodesFree: big("volume_inodes_free"),
    /**
     * df's Use%: Used ÷ (Used + Avail), rounded up, so the figure an admin compares with df on the workspace is
     * the one the full-volume rule and the sort read. Space reserved for root is in neither term.
     */
    volumeUsedPct: smallint("volume_used_pct").generatedAlwaysAs(
      sql`CASE WHEN coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) + volume_free_bytes > 0
        THEN ceil(coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) * 100.0
          / (coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes) + volume_free_bytes)) END`,
    ),
    /** df -i's IUse%: IUsed ÷ (IUsed + IFree), rounded up. */
    volumeInodesUsedPct: smallint("volume_inodes_used_pct").generatedAlwaysAs(
      sql`CASE WHEN volume_inodes_used + volume_inodes_free > 0
        THEN ceil(volume_inodes_used * 100.0 / (volume_inodes_used + volume_inodes_free)) END`,
    ),
    totalBytes: big("total_bytes").notNull().default(0),
    rootCount: integer("root_count").notNull().default(0),
    largestAgent: text("largest_agent"),
    largestAgentBytes: big("largest_agent_bytes"),
    /** Bytes per day from a linear fit over recent reports (predict_linear). */
    growthBytesPerDay: real("growth_bytes_per_day"),
    /** When the volume fills at that rate; null when it is not growing. */
    forecastFullAt: timestamp("forecast_full_at", { withTimezone: true }),
    // Coder's view of the workspace, kept by the workspace sync (lib/services/coder-sync.ts); null until a sync saw it.
    /** latest_build.status: pending, starting, running, stopping, stopped, failed, canceling, canceled, deleting, deleted. */
    coderStatus: text("coder_status"),
    /** latest_build.transition: start, stop or delete. */
    coderTransition: text("coder_transition"),
    coderDormantAt: timestamp("coder_dormant_at", { withTimezone: true }),
    /** When Coder deletes the workspace by itself (a dormant workspace's auto-deletion). */
    coderDeletingAt: timestamp("coder_deleting_at", { withTimezone: true }),
    coderLastUsedAt: timestamp("coder_last_used_at", { withTimezone: true }),
    coderHealthy: boolean("coder_healthy"),
    /** When a sync last found the workspace in Coder. */
    coderSyncedAt: timestamp("coder_synced_at", { withTimezone: true }),
    /**
     * When a sync found the workspace deleted in Coder: it leaves the fleet's totals and charts from that day on,
     * stays browsable under a filter, and keeps its history until retention expires it.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    /** The agents' own retention settings from the newest report; null when its reporter does not read them. */
    agentRetention: jsonb("agent_retention").$type<AgentRetention>(),
    /** The whole home from the newest report (where the volume's bytes go); null when its reporter does not measure it. */
    home: jsonb("home").$type<HomeUsage>(),
    /** Where the home and each root live and whether that survives a restart; null from older reporters. */
    persistence: jsonb("persistence").$type<Persistence>(),
    /**
     * When the newest report was collected, if it says the reporter's own writes failed for lack of space
     * (ENOSPC, EDQUOT); null when it does not. The owner is told the volume is full.
     */
    writesFailedNoSpaceAt: timestamp("writes_failed_no_space_at", { withTimezone: true }),
    /**
     * The newest report's run said it can deliver the owner's notices to their Coder Inbox (lib/services/coder-inbox.ts):
     * the module gave it Coder's URL and the owner's session token. The token itself never reaches the dashboard.
     */
    coderInbox: boolean("coder_inbox").notNull().default(false),
    /**
     * The 7-day change's bases, kept for the workspaces table's sort (lib/db/queries/change-7d.ts): the workspace's
     * daily total on or before `changeSince` and on or before the day after, so the kept values still hold the day
     * after they were written. Written by the maintenance; ingest clears `changeSince` when it writes a day they
     * cover; a page recomputes whatever they do not hold for its day.
     */
    changeSince: date("change_since", { mode: "string" }),
    changeBaseBytes: big("change_base_bytes"),
    changeNextBytes: big("change_next_bytes"),
  },
  (t) => [
    index("workspaces_owner_idx").on(t.owner),
    index("workspaces_template_idx").on(t.template),
    // With the id, the order of the table and export sorted by size (the keyset's tie-break): a page of the export
    // of 100,000 workspaces read 2,000 index entries (6 ms) instead of sorting every workspace (80 ms).
    index("workspaces_total_idx").on(t.totalBytes.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("workspaces_last_collected_idx").on(t.lastCollectedAt),
    index("workspaces_volume_used_pct_idx").on(t.volumeUsedPct.desc()),
    // Whether a workspace loses something at a restart, kept by the database with the row: the restart risk reads
    // the few at risk by it rather than testing every workspace's facts (933 ms at 100,000 workspaces), and the
    // statistics ANALYZE keeps of an index's expression tell the planner how few they are
    // (docs/decisions/0012-restart-risk-by-index.md).
    // Not partial: the planner reads no statistics of a partial index's expression.
    index("workspaces_lost_at_restart_idx").on(losesAtRestart(sql`persistence`)),
    // The few deleted workspaces, which every fleet read leaves out.
    index("workspaces_deleted_idx")
      .on(t.id)
      .where(sql`deleted_at is not null`),
  ],
);

/**
 * The last workspace sync from Coder (one row, id "coder"): when it ran, what it found, and its error, so the
 * pages can say how current Coder's view is, and why not, without calling Coder.
 */
export const coderSyncState = pgTable("coder_sync_state", {
  id: text("id").primaryKey(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  finishedAt: timestamp("finished_at", { withTimezone: true }),
  /** The last sync that completed without an error. */
  succeededAt: timestamp("succeeded_at", { withTimezone: true }),
  listed: integer("listed").notNull().default(0),
  added: integer("added").notNull().default(0),
  updated: integer("updated").notNull().default(0),
  deleted: integer("deleted").notNull().default(0),
  jobsCancelled: integer("jobs_cancelled").notNull().default(0),
  error: text("error"),
  /** The last sync that went through: how many workspaces it could not check in Coder, and the first of them. */
  unverifiedCount: integer("unverified_count").notNull().default(0),
  unverified: jsonb("unverified").$type<UnverifiedWorkspace[]>().notNull().default([]),
});

/** One token per workspace, stored as a SHA-256 hash: tokens are 256 random bits, so a slow hash adds nothing. */
export const workspaceTokens = pgTable(
  "workspace_tokens",
  {
    workspaceId: text("workspace_id")
      .primaryKey()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The hash of the secret the reporter sent with its enrollment and kept until it stored the token: the same
     * claim enrolls the workspace again when the answer was lost on the way (null: enrolled without one).
     */
    claimHash: text("claim_hash"),
  },
  (t) => [uniqueIndex("workspace_tokens_hash_idx").on(t.tokenHash)],
);

export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Why a workspace cannot report, as its module's script said last (lib/report-format/blockers.ts). Kept apart from
 * `workspaces`: saying so enrolls nothing, so the workspace joins no fleet figure, and no token is issued. The
 * coverage list shows a reason until the workspace reports after it.
 */
export const reportBlockers = pgTable("report_blockers", {
  workspaceId: text("workspace_id").primaryKey(),
  name: text("name").notNull(),
  owner: text("owner").notNull(),
  template: text("template"),
  reason: text("reason").notNull(),
  detail: text("detail").notNull(),
  moduleVersion: text("module_version"),
  reportedAt: timestamp("reported_at", { withTimezone: true }).notNull().defaultNow(),
  /** Given with the enrollment key, not a workspace token: such rows are capped in number and expire. */
  byKey: boolean("by_key").notNull().default(false),
});
