import { sql, type SQL } from "drizzle-orm";

// Sums over a root's age buckets (root_latest.ages, the report's AgeBreakdown as JSON): one spelling for the
// agent page, the retention shares and the agent-retention finding.

/** Bytes in files older than 30 days: the buckets "90d" and "older" of the JSON `ages`. */
export const olderBytes = (ages: SQL): SQL =>
  sql`(coalesce((${ages} -> '90d' ->> 'bytes')::float8, 0) + coalesce((${ages} -> 'older' ->> 'bytes')::float8, 0))`;

/** Bytes in all the age buckets of the JSON `ages` (files only: folders have no age). */
export const agedBytes = (ages: SQL): SQL =>
  sql`coalesce((select sum((v ->> 'bytes')::float8) from jsonb_each(${ages}) as e(k, v)), 0)`;
