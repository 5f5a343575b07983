import { sql } from "drizzle-orm";
import { z } from "zod";
import { agentDisplayName } from "@/lib/catalog/agents";
import { COMPATIBILITY } from "@/lib/catalog/compatibility";
import { formatBytes } from "@/lib/format/bytes";
import { defineRule, MIB } from "../rule";

/** Each agent's minimum storage (Coder's agent compatibility page), as SQL rows (agent, bytes). */
const minimums = sql.join(
  Object.entries(COMPATIBILITY).map(([agent, c]) => sql`(${agent}::text, ${c.minStorageMb * MIB}::float8)`),
  sql`, `,
);

/**
 * A workspace whose volume has less free space (df's Avail) than an agent it runs needs to keep its sessions.
 * One finding per workspace and agent, on the agent's first root; `value` the free bytes, `threshold` the minimum.
 */
export const belowAgentMinimum = defineRule({
  id: "below-agent-minimum",
  title: "Less free space than an agent needs",
  description:
    "The home volume has less free space than an agent on it needs to keep its sessions (Coder's agent compatibility page: 100 MB for Claude Code and Codex, 200 MB for Gemini, 50 MB for most).",
  enabled: true,
  severity: "warning",
  params: z.object({}).strict(),
  defaults: {},
  unit: "bytes",
  scope: "root",
  urgency: sql`threshold / greatest(value, 1)`,
  rows: (_p, { ws }) => sql`select distinct on (r.workspace_id, r.agent) r.workspace_id, r.root_key, r.agent,
      null::text as path, w.volume_free_bytes::float8 as value, m.min_bytes as threshold
    from root_latest r join workspaces w on w.id = r.workspace_id
      join (values ${minimums}) m(agent, min_bytes) on m.agent = r.agent
    where r.kind in ('tool', 'module', 'legacy') and w.volume_free_bytes < m.min_bytes ${ws}
    order by r.workspace_id, r.agent, r.root_key`,
  fields: {},
  describe: (f) => ({
    message: `${formatBytes(f.value)} free on the home volume; ${agentDisplayName(f.agent ?? "")} needs at least ${formatBytes(f.threshold)} to keep its sessions.`,
    action:
      "Free space (run the largest roots' cleanups) or give the template a larger home volume, or the agent's next session may not be saved.",
  }),
});
