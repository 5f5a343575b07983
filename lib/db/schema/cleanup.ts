import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { JobResult, RecipeParams, Scope, TruncateTarget } from "@/lib/cleanup/protocol";
import type { JobState } from "@/lib/cleanup/job-states";
import type { CustomTarget, JobKind, PolicySchedule } from "@/lib/cleanup/types";
import { workspaces } from "./workspaces";

const big = (name: string) => bigint(name, { mode: "number" });
const tz = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

// What a run asks for, shared by runs and the policies that start them.
const requestColumns = {
  recipe: text("recipe"),
  custom: jsonb("custom").$type<CustomTarget>(),
  params: jsonb("params").$type<RecipeParams>(),
  scope: jsonb("scope").$type<Scope>().notNull(),
  dryRun: boolean("dry_run").notNull().default(false),
  action: text("action").$type<"delete" | "trash">().notNull(),
  trashDays: integer("trash_days").notNull(),
  minAgeHours: integer("min_age_hours").notNull(),
  /** Jobs not claimed within this many days end as "expired". */
  expiresDays: integer("expires_days").notNull(),
  /** Count ctimes in a unit's age too (off: mtimes only, as kubelet's fsGroup walk resets every ctime). */
  countStatusChanges: boolean("count_status_changes").notNull().default(false),
};

/** One admin decision (or one policy firing): fans out to one job per workspace in scope. */
export const cleanupRuns = pgTable(
  "cleanup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<JobKind>().notNull(),
    ...requestColumns,
    /** restore: the cleanup job whose trashed units come back. */
    sourceJobId: uuid("source_job_id"),
    /** truncate: the one log file emptied (no recipe, no parameters). */
    target: jsonb("target").$type<TruncateTarget>(),
    policyId: uuid("policy_id"),
    createdAt: tz("created_at").notNull().defaultNow(),
    createdByType: text("created_by_type").notNull(),
    createdById: text("created_by_id"),
    createdByLabel: text("created_by_label").notNull(),
    /** The preview the run was confirmed with (the admin's number, recomputed at creation). */
    previewBytes: big("preview_bytes").notNull().default(0),
    previewUnits: big("preview_units").notNull().default(0),
    previewEstimate: boolean("preview_estimate").notNull().default(false),
    /** Workspaces in scope whose reporter sends no recipe usage (too old to run cleanups): no job. */
    workspacesWithoutUsage: integer("workspaces_without_usage").notNull().default(0),
    cancelledAt: tz("cancelled_at"),
    cancelledBy: text("cancelled_by"),
    /** Started by a workspace's owner from My storage: to the trash, capped at its preview's units and bytes. */
    byOwner: boolean("by_owner").notNull().default(false),
  },
  (t) => [
    index("cleanup_runs_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("cleanup_runs_policy_idx").on(t.policyId),
  ],
);

/** One workspace's share of a run; the workspace's reporter claims it when it calls in. */
export const cleanupJobs = pgTable(
  "cleanup_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    runId: uuid("run_id")
      .notNull()
      .references(() => cleanupRuns.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    kind: text("kind").$type<JobKind>().notNull(),
    state: text("state").$type<JobState>().notNull().default("queued"),
    sourceJobId: uuid("source_job_id"),
    /** The roots (report keys) the preview found for this workspace. */
    rootKeys: jsonb("root_keys").$type<string[]>().notNull().default([]),
    previewBytes: big("preview_bytes").notNull().default(0),
    previewUnits: big("preview_units").notNull().default(0),
    createdAt: tz("created_at").notNull().defaultNow(),
    expiresAt: tz("expires_at").notNull(),
    claimedAt: tz("claimed_at"),
    /** SHA-256 of the current holder's lease token; a result must present the token. */
    leaseTokenHash: text("lease_token_hash"),
    leaseExpiresAt: tz("lease_expires_at"),
    attempts: integer("attempts").notNull().default(0),
    interruptions: integer("interruptions").notNull().default(0),
    /** Set by a cancel while the job runs: the reporter stops at its next progress call. */
    cancelRequested: boolean("cancel_requested").notNull().default(false),
    /** Why the job was cancelled when no admin did it (its workspace was deleted in Coder). */
    cancelReason: text("cancel_reason"),
    finishedAt: tz("finished_at"),
    unitsActed: big("units_acted"),
    bytesActed: big("bytes_acted"),
    skippedUnits: integer("skipped_units"),
    errorCount: integer("error_count"),
  },
  (t) => [
    index("cleanup_jobs_workspace_state_idx").on(t.workspaceId, t.state),
    index("cleanup_jobs_run_idx").on(t.runId, t.state),
    // The run page's orders (lib/db/queries/cleanup-run-jobs.ts), nulls where its ORDER BY puts them (DESC alone
    // is NULLS FIRST), so a page is read in the index's order and stops at its last job, however many jobs the
    // run has. By workspace reads workspaces by owner instead (workspaces_owner_idx).
    index("cleanup_jobs_run_preview_idx").on(t.runId, t.previewBytes.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("cleanup_jobs_run_freed_idx").on(t.runId, t.bytesActed.desc().nullsLast(), t.id.desc().nullsFirst()),
    index("cleanup_jobs_run_finished_idx").on(t.runId, t.finishedAt.desc().nullsLast(), t.id.desc().nullsFirst()),
    index("cleanup_jobs_state_expires_idx").on(t.state, t.expiresAt),
    index("cleanup_jobs_state_lease_idx").on(t.state, t.leaseExpiresAt),
  ],
);

/** What the reporter sent back for a job, stored once. */
export const cleanupJobResults = pgTable("cleanup_job_results", {
  jobId: uuid("job_id")
    .primaryKey()
    .references(() => cleanupJobs.id, { onDelete: "cascade" }),
  /** The lease the result came under: a resend under the same lease is answered as the first was. */
  leaseTokenHash: text("lease_token_hash").notNull(),
  status: text("status").$type<JobResult["status"]>().notNull(),
  unitsActed: big("units_acted").notNull(),
  bytesActed: big("bytes_acted").notNull(),
  units: jsonb("units").$type<JobResult["units"]>().notNull(),
  skipped: jsonb("skipped").$type<JobResult["skipped"]>().notNull(),
  errors: jsonb("errors").$type<JobResult["errors"]>().notNull(),
  logTail: jsonb("log_tail").$type<string[]>().notNull(),
  startedAt: tz("started_at").notNull(),
  finishedAt: tz("finished_at").notNull(),
  receivedAt: tz("received_at").notNull().defaultNow(),
});

/** A standing cleanup: the scheduler queues its run when due. */
export const cleanupPolicies = pgTable("cleanup_policies", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  ...requestColumns,
  schedule: text("schedule").$type<PolicySchedule>().notNull(),
  /** When in the day (minutes after 00:00 UTC) and, weekly, on which weekday (0 = Sunday) it runs. */
  runAtMinute: integer("run_at_minute").notNull().default(180),
  runWeekday: integer("run_weekday").notNull().default(1),
  enabled: boolean("enabled").notNull().default(true),
  /**
   * The preview figure an admin confirmed for the policy as it stands; null until then, and again after any
   * change of what it selects or does. Unconfirmed, its scheduled runs are dry runs.
   */
  confirmedBytes: big("confirmed_bytes"),
  confirmedWorkspaces: integer("confirmed_workspaces"),
  confirmedAt: tz("confirmed_at"),
  confirmedBy: text("confirmed_by"),
  /** Set when a scheduled run's preview ran far above the confirmed figure: no run until a new confirmation. */
  heldAt: tz("held_at"),
  heldBytes: big("held_bytes"),
  heldWorkspaces: integer("held_workspaces"),
  createdAt: tz("created_at").notNull().defaultNow(),
  updatedAt: tz("updated_at").notNull().defaultNow(),
  createdBy: text("created_by").notNull(),
  lastRunAt: tz("last_run_at"),
  lastRunId: uuid("last_run_id"),
});
