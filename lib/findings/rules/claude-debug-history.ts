import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, MIB, num, PAST_THRESHOLD } from "../rule";

/** Claude Code's debug/ plus file-history/ larger than its sessions, once they pass `minBytes`. */
export const claudeDebugHistory = defineRule({
  id: "claude-debug-history",
  title: "Claude debug/file-history larger than sessions",
  description: "Claude Code's debug/ and file-history/ folders together are larger than its sessions.",
  enabled: true,
  severity: "warning",
  params: z.object({ minBytes: bytes }).strict(),
  defaults: { minBytes: 50 * MIB },
  unit: "bytes",
  scope: "root",
  // The threshold is the root's sessions: how many times their size, as for every other rule in bytes.
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    // The reporter files Claude's debug/ under "logs"; file-history/ is counted from the largest entries.
    const min = num(p.minBytes);
    const debugHistory = sql`(coalesce((r.categories -> 'logs' ->> 'bytes')::float8, 0) + coalesce((select sum((e ->> 'bytes')::float8)
        from jsonb_array_elements(r.largest) e where e ->> 'path' = 'file-history' or e ->> 'path' like 'file-history/%'), 0))`;
    const sessions = sql`coalesce((r.categories -> 'sessions' ->> 'bytes')::float8, 0)`;
    return sql`select * from (select r.workspace_id, r.root_key, r.agent, null::text as path, ${debugHistory} as value,
          ${sessions} as threshold
        from root_latest r where r.agent = 'claude-code' and r.kind in ('tool', 'legacy') and r.bytes::float8 >= ${min} ${ws}) x
      where value > threshold and value >= ${min}`;
  },
  fields: {
    minBytes: { label: "Once debug/ and file-history/ hold at least", unit: "MiB" },
  },
  items: () => "Claude Code roots whose debug/ and file-history/ outgrow their sessions",
  describe: (f) => ({
    message: `Claude Code's debug/ and file-history/ hold ${formatBytes(f.value)}, more than its sessions (${formatBytes(f.threshold)}).`,
    action:
      "Delete debug/ and file-history/ entries older than 7 days with the Claude cleanup; lower cleanupPeriodDays in ~/.claude/settings.json.",
  }),
});
