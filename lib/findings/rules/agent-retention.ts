import { sql } from "drizzle-orm";
import { z } from "zod";
import { agentDisplayName } from "@/lib/catalog/agents";
import { olderBytes } from "@/lib/findings/age-buckets";
import {
  CLAUDE_DEFAULT_DAYS,
  GEMINI_DEFAULT_MAX_AGE,
  OPENCODE_SNAPSHOT_DAYS,
  RETENTION_AGENTS,
  RETENTION_COMPARE_DAYS,
  retentionAdvice,
} from "@/lib/catalog/retention";
import { formatBytes } from "@/lib/format/bytes";
import type { MeasuredFinding } from "../finding";
import { bytes, defineRule, GIB, num } from "../rule";

// What each agent keeps, in days, from the settings on the workspace (the newest report's, as
// lib/catalog/retention.ts words them): null keeps = no limit; known false = the settings were not read (an
// unreadable file, or a reporter that does not read them), and no finding is made on a guess.
const keeps = sql`case r.agent
    when 'claude-code' then case w.agent_retention -> 'claude-code' ->> 'state'
      when 'set' then (w.agent_retention -> 'claude-code' ->> 'cleanupPeriodDays')::float8
      else ${CLAUDE_DEFAULT_DAYS}::float8 end
    when 'gemini' then case when (w.agent_retention -> 'gemini' ->> 'enabled')::boolean is false then null
      else (select substring(a from '^[0-9]+')::float8
        * case right(a, 1) when 'h' then 1.0 / 24 when 'w' then 7 when 'm' then 30 else 1 end
        from coalesce(w.agent_retention -> 'gemini' ->> 'maxAge', ${GEMINI_DEFAULT_MAX_AGE}) a) end
  end`;
const known = sql`(r.agent not in ('claude-code', 'gemini')
  or coalesce(w.agent_retention -> r.agent ->> 'state', 'absent') <> 'unreadable' and w.agent_retention is not null)`;
/** Bytes whose files are older than 30 days: the report's two age buckets past 30 days. */
const older = olderBytes(sql`r.ages`);

const inSource = (f: MeasuredFinding) => (f.path ? ` in ${f.path}` : "");

/** What the agent keeps here and by which setting; `threshold` is the days kept (0: no limit). */
function kept(f: MeasuredFinding): string {
  // Gemini CLI's maxAge may be in hours: a tenth of a day is enough.
  const days = `${Math.round(f.threshold * 10) / 10} days`;
  switch (f.agent) {
    case "claude-code":
      return `keeps ${days} here (cleanupPeriodDays ${f.threshold}${inSource(f)})`;
    case "gemini":
      return f.threshold > 0
        ? `keeps ${days} here (general.sessionRetention.maxAge${inSource(f)})`
        : `keeps chats with no age limit here (general.sessionRetention.enabled false${inSource(f)})`;
    case "codex":
      return "keeps session rollouts with no age limit here (no retention: history.max_bytes caps history.jsonl only)";
    case "opencode":
      return `keeps sessions with no age limit here (no retention: only snapshots go, after ${OPENCODE_SNAPSHOT_DAYS} days)`;
    default:
      return "keeps sessions with no age limit here (no retention)";
  }
}

/**
 * An agent that keeps its data longer than 30 days (or without limit) and holds at least `minBytes` older than
 * that in its own folder. `value`: those bytes; `threshold`: the days it keeps (0: no limit); `path`: the
 * settings file the retention was read from, when one was.
 */
export const agentRetention = defineRule({
  id: "agent-retention",
  title: "Agent keeps data past 30 days",
  description: `An agent's own retention keeps data longer than ${RETENTION_COMPARE_DAYS} days (or it has none), and its folder holds that much older data.`,
  enabled: true,
  severity: "info",
  params: z.object({ minBytes: bytes }).strict(),
  defaults: { minBytes: GIB },
  unit: "bytes",
  scope: "root",
  // GiB past 30 days: the more old data an agent keeps, the sooner its retention is worth fixing.
  urgency: sql`value / ${GIB}::float8`,
  rows: (p, { ws }) => {
    const agents = sql.join(
      RETENTION_AGENTS.map((a) => sql`${`${a}:data`}`),
      sql`, `,
    );
    return sql`select workspace_id, root_key, agent, path, value, coalesce(keeps, 0) as threshold from (
        select r.workspace_id, r.root_key, r.agent, w.agent_retention -> r.agent ->> 'source' as path, ${older} as value,
          ${keeps} as keeps, ${known} as known
        from root_latest r join workspaces w on w.id = r.workspace_id
        where r.kind = 'tool' and r.root_key in (${agents}) ${ws}) x
      where known and (keeps is null or keeps > ${RETENTION_COMPARE_DAYS}) and value >= ${num(p.minBytes)}`;
  },
  fields: { minBytes: { label: "Once the data older than 30 days is at least", unit: "MiB" } },
  describe: (f) => ({
    message: `${agentDisplayName(f.agent ?? "")} ${kept(f)} and holds ${formatBytes(f.value)} older than ${RETENTION_COMPARE_DAYS} days.`,
    action: retentionAdvice(f.agent ?? ""),
  }),
});
