// What "silent" means, everywhere it is shown (the silent-workspace finding, the fleet overview's silent list,
// the workspaces table's and the workspace page's flag): no report for over the silent-workspace rule's hours.
import { sql, type SQL } from "drizzle-orm";

/** Since when a workspace (alias w) has been silent: its newest report, or its enrollment if it never reported. */
export const silentSince = sql`coalesce(w.last_collected_at, w.first_seen_at)`;

/** SQL condition: the workspace (alias w) is silent at `now` (a timestamptz) after `hours` without a report. */
export const isSilent = (hours: number, now: SQL) =>
  sql`${silentSince} < ${now} - make_interval(secs => ${hours}::float8 * 3600)`;

/**
 * SQL condition: Coder says the workspace (alias w) is not running (stopped, failed, deleted, ...) or dormant, so
 * its silence is expected. A workspace Coder has not described (no sync, or not in Coder) is not expected silent.
 */
export const silenceExpected = sql`((w.coder_status is not null and w.coder_status <> 'running') or w.coder_dormant_at is not null)`;
