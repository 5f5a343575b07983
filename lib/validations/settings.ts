import { z } from "zod";

// Retention settings: how long each kind of stored data is kept, in days. The list is a registry: a feature
// that stores rows which should expire by age (audit entries, cleanup results, ...) adds one entry here with
// its table and time column, and the maintenance task (lib/db/maintenance-task.ts) deletes its expired rows;
// the value lives in the settings table under `key`, the settings page and PUT /api/v1/settings/retention
// show and edit it like the others.

export type RetentionSetting = {
  id: string;
  label: string;
  /** The row in the settings table holding the number of days. */
  key: string;
  defaultDays: number;
  minDays: number;
  maxDays: number;
  /**
   * A table whose rows are deleted once `timeColumn` is older than the setting. Absent for the history tables,
   * which the maintenance task expires itself (raw: whole day partitions; roll-ups: with the fleet baseline).
   * A table or column that does not exist (yet) is skipped.
   */
  table?: string;
  timeColumn?: string;
};

export const RETENTION_SETTINGS = [
  {
    id: "raw",
    label: "Raw reports (every report and root)",
    key: "retention.raw_days",
    defaultDays: 14,
    minDays: 1,
    maxDays: 3650,
  },
  // At least 35 days: the overview's growth figures look 30 days back.
  {
    id: "rollups",
    label: "Daily roll-ups (charts)",
    key: "retention.rollup_days",
    defaultDays: 400,
    minDays: 35,
    maxDays: 3650,
  },
  {
    id: "audit",
    label: "Audit entries",
    key: "retention.audit_days",
    defaultDays: 365,
    minDays: 1,
    maxDays: 3650,
    table: "audit_log",
    timeColumn: "at",
  },
  // A run goes with its jobs and their results (foreign keys cascade); runs are long finished by then (jobs expire in days).
  {
    id: "cleanup",
    label: "Cleanup runs and their results",
    key: "retention.cleanup_days",
    defaultDays: 90,
    minDays: 1,
    maxDays: 3650,
    table: "cleanup_runs",
    timeColumn: "created_at",
  },
  // At least 30 days: the Notifications page shows the last 30. A row is sent or failed within a day of its making.
  {
    id: "notifications",
    label: "Owners' notices (the outbox)",
    key: "retention.notification_days",
    defaultDays: 90,
    minDays: 30,
    maxDays: 3650,
    table: "notification_outbox",
    timeColumn: "created_at",
  },
] as const satisfies readonly RetentionSetting[];

export type RetentionId = (typeof RETENTION_SETTINGS)[number]["id"];
export type RetentionDays = Record<RetentionId, number>;

/** Body of PUT /api/v1/settings/retention: the settings to change, in days. */
export const retentionUpdate = z
  .object(
    Object.fromEntries(
      RETENTION_SETTINGS.map((s) => [s.id, z.number().int().min(s.minDays).max(s.maxDays).optional()]),
    ) as Record<RetentionId, z.ZodOptional<z.ZodNumber>>,
  )
  .strict()
  .refine((v) => Object.values(v).some((d) => d !== undefined), "name at least one setting to change");

export type RetentionUpdate = z.infer<typeof retentionUpdate>;

/**
 * The roll-ups must outlive raw history: a late report inside the raw window corrects the roll-ups of its day,
 * and a report's predecessor is read from the roll-ups once its raw rows have expired.
 */
export function retentionProblem(days: RetentionDays): string | null {
  return days.rollups > days.raw
    ? null
    : `Daily roll-ups (${days.rollups} days) must be kept longer than raw reports (${days.raw} days).`;
}
