import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, MIB, num, PAST_THRESHOLD } from "../rule";
import { agentAction } from "../wording";

/** A single session (largest entry of type "session") above this size. */
export const largeSession = defineRule({
  id: "large-session",
  title: "Very large session",
  description: "A single session file or folder is larger than 200 MiB.",
  enabled: true,
  severity: "warning",
  params: z.object({ bytes }).strict(),
  defaults: { bytes: 200 * MIB },
  unit: "bytes",
  scope: "root",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    const th = num(p.bytes);
    return sql`select r.workspace_id, r.root_key, r.agent, e ->> 'path' as path, (e ->> 'bytes')::float8 as value,
        ${th} as threshold
      from root_latest r cross join lateral jsonb_array_elements(r.largest) e
      where r.bytes::float8 > ${th} and e ->> 'type' = 'session' and (e ->> 'bytes')::float8 > ${th} ${ws}`;
  },
  fields: { bytes: { label: "A session larger than", unit: "MiB" } },
  items: (f) => `sessions over ${formatBytes(f.threshold)}`,
  describe: (f) => ({
    message: `A single session in ${f.rootKey} is ${formatBytes(f.value)} (limit ${formatBytes(f.threshold)}): ${f.path}.`,
    action:
      f.agent === "claude-code"
        ? "Finish or archive that conversation; Claude Code's cleanupPeriodDays removes it once it is old enough, or delete the session (.jsonl and its folder) with the Claude cleanup."
        : agentAction(f.agent),
  }),
});
