// Which file a truncation may empty, one rule for the growing-file finding's wording, the Truncate button, the
// server that queues it and the reporter that acts. No dependencies: the browser and the reporter import it. A log written every day only grows, and
// emptying it loses lines nobody reads; a SQLite database (or its -wal, -shm, -journal) cut to zero is a
// corrupt database, so a database is never offered, whatever its size.

/**
 * A log: a file in a logs/, log/, debug/ or mcp-logs-* folder, or named *.log (or *.log.N, rotated). As text
 * too, for the finding's SQL (a RegExp's source escapes its slashes).
 */
export const LOG_PATTERN = String.raw`(^|/)(logs?|debug|mcp-logs-[^/]*)/|\.log(\.[0-9]+)?$`;
export const LOG_PATH = new RegExp(LOG_PATTERN);
/** A database or one of its companions: never truncated, never deleted in part. */
export const DATABASE_PATH = /\.(sqlite[0-9]*|db[0-9]?)(-wal|-shm|-journal)?$/;

/** Why the file at `path` (relative to its root) may not be truncated, or null when it may. */
export function truncateRefusal(path: string): string | null {
  if (DATABASE_PATH.test(path) || path.includes(".sqlite"))
    return `${path} is a database: a database is never truncated (stop the program and run VACUUM on it instead).`;
  if (!LOG_PATH.test(path)) return `${path} is not a log file: only a log (*.log, or in a logs folder) is truncated.`;
  return null;
}

/** The words of the confirmation and the run: what is emptied and why nothing brings it back. */
export const TRUNCATE_CONSEQUENCE =
  "This cannot be undone; the trash cannot hold it. The workspace's reporter empties the file when it next calls in, and refuses while any process holds it open.";
