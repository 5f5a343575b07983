// What an admin's confirmation is worth: the figure a run or a policy was confirmed with, compared with the
// preview at the moment it acts. Pure: the queries (lib/db/queries/cleanup-runs.ts, cleanup-policies.ts) and the
// scheduler use it, the pages word it.
import { CONFIRM_TOLERANCE } from "./types";

export type Figure = { bytes: number; workspaces: number };

/** A scheduled run whose preview is more than this many times the confirmed bytes or workspaces is held. */
export const RUNAWAY_FACTOR = 2;

/**
 * The fields of a policy that decide what it removes and how: a change to any of them asks for a new
 * confirmation (name, schedule, enabled and job expiry do not).
 */
export const CONFIRMED_FIELDS = [
  "recipe",
  "custom",
  "params",
  "scope",
  "dryRun",
  "action",
  "minAgeHours",
  "countStatusChanges",
] as const;

/** True when the preview moved from the figure the admin saw by more than the tolerance (10 %). */
export function movedSince(previewBytes: number, confirmedBytes: number): boolean {
  return (
    Math.abs(previewBytes - confirmedBytes) > CONFIRM_TOLERANCE * confirmedBytes ||
    (confirmedBytes === 0 && previewBytes > 0)
  );
}

/** True when a scheduled preview ran far above what was last confirmed: the run is held, not run. */
export function isRunaway(preview: Figure, confirmed: Figure): boolean {
  return preview.bytes > RUNAWAY_FACTOR * confirmed.bytes || preview.workspaces > RUNAWAY_FACTOR * confirmed.workspaces;
}

/** True when a change of the policy from `before` to `after` touches what was confirmed. */
export function changesConfirmed(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return CONFIRMED_FIELDS.some((f) => JSON.stringify(before[f] ?? null) !== JSON.stringify(after[f] ?? null));
}
