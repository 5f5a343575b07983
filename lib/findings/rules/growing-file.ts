import { sql } from "drizzle-orm";
import { z } from "zod";
import { agentDisplayName } from "@/lib/catalog/agents";
import { DATABASE_PATH, LOG_PATTERN } from "@/lib/catalog/truncatable";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, GIB, MIB, num } from "../rule";

// A single log or database file that only grows (Codex's log/codex-tui.log reached 50 GB, openai/codex #13463;
// its logs_2.sqlite tens of GB; Claude Code's MCP logs 2 GB a file): no age rule ever reaches a file that is
// written every day, so it is a finding of its own. Read from the largest entries the reports list (files at
// any depth), and for growth, the same file in the newest report of 7 to 14 days before the latest.

/** Logs and SQLite files with their write-ahead log. */
const LOG_OR_DATABASE = LOG_PATTERN + String.raw`|\.(sqlite[0-9]*|db[0-9]?)(-wal)?$`;

/**
 * A log or database file of at least `bytes`, or growing by at least `bytesPerDay` over 7 days or more.
 * `value`: its size; `threshold`: its growth per day (0 when no report of 7 to 14 days earlier lists it);
 * `path`: the file, relative to its root.
 */
export const growingFile = defineRule({
  id: "growing-file",
  title: "A file that only grows",
  description:
    "A single log or database file of 1 GiB or more, or growing by 100 MiB a day or more over 7 days: no age rule reaches a file that is written every day.",
  enabled: true,
  severity: "warning",
  params: z.object({ bytes, bytesPerDay: bytes }).strict(),
  defaults: { bytes: GIB, bytesPerDay: 100 * MIB },
  unit: "bytes",
  scope: "root",
  // its size and a week of its growth, in GiB
  urgency: sql`(value + 7 * threshold) / ${GIB}::float8`,
  rows: (p, { ws }) => {
    const size = num(p.bytes);
    const rate = num(p.bytesPerDay);
    // a file that grew by `rate` a day for 7 days is at least 7 × rate now: only those are looked up in history
    return sql`select workspace_id, root_key, agent, path, value, threshold from (
        select r.workspace_id, r.root_key, r.agent, e ->> 'path' as path, (e ->> 'bytes')::float8 as value,
          coalesce(greatest(0, ((e ->> 'bytes')::float8 - (old.x ->> 'bytes')::float8)
            / (extract(epoch from r.collected_at - past.collected_at) / 86400)), 0) as threshold
        from root_latest r
        cross join lateral jsonb_array_elements(r.largest) e
        left join lateral (
          select u.collected_at, u.largest from root_usage u
          where u.workspace_id = r.workspace_id and u.root_key = r.root_key
            and u.collected_at <= r.collected_at - interval '7 days'
            and u.collected_at > r.collected_at - interval '14 days'
          order by u.collected_at desc limit 1) past on (e ->> 'bytes')::float8 >= least(${size}, 7 * ${rate})
        left join lateral (
          select x from jsonb_array_elements(past.largest) x
          where x ->> 'path' = e ->> 'path' and x ->> 'type' = 'file' limit 1) old on true
        where e ->> 'type' = 'file' and (e ->> 'path') ~ ${LOG_OR_DATABASE}
          and (e ->> 'bytes')::float8 >= least(${size}, 7 * ${rate}) ${ws}
      ) f where value >= ${size} or threshold >= ${rate}`;
  },
  fields: {
    bytes: { label: "A log or database file of at least", unit: "MiB" },
    bytesPerDay: { label: "Or growing over 7 days by at least", unit: "MiB per day" },
  },
  items: () => "files that only grow",
  describe: (f) => {
    const grows = f.threshold > 0 ? `, growing by ${formatBytes(f.threshold)} a day` : "";
    const agent = f.agent ? agentDisplayName(f.agent) : "the program that writes it";
    const db = DATABASE_PATH.test(f.path ?? "");
    return {
      message: `${f.path} in ${f.rootKey} is ${formatBytes(f.value)}${grows}: one ${db ? "database" : "log"} file that only grows, which no age rule reaches.`,
      action: db
        ? `A database is never truncated nor deleted in part: stop ${agent} and run VACUUM on it (sqlite3 <file> 'VACUUM;', which also checkpoints its -wal), or delete old data from inside ${agent}.`
        : `Truncate it (the reporter refuses while ${agent} or any process holds it open: an open file keeps its blocks), and lower the log level that writes it; older log files of the same kind go with a cleanup policy.`,
    };
  },
});
