import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, num, PAST_THRESHOLD } from "../rule";
import { where } from "../wording";

/** AgentAPI leftovers in a root (or, from reporters before 0.2, roots of kind "leftover") larger than this (0: any). */
export const agentapiLeftover = defineRule({
  id: "agentapi-leftover",
  title: "AgentAPI leftovers",
  description: "agentapi-state.json / agentapi.pid left in module folders after AgentAPI was dropped.",
  enabled: true,
  severity: "info",
  params: z.object({ minBytes: bytes }).strict(),
  defaults: { minBytes: 0 },
  unit: "bytes",
  scope: "root",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    // Leftovers are listed inside their root; reporters before 0.2 sent each as a root of kind "leftover".
    const th = num(p.minBytes);
    return sql`select * from (
        select r.workspace_id, r.root_key, r.agent,
          (select string_agg(e ->> 'path', ', ' order by e ->> 'path') from jsonb_array_elements(r.leftovers) e) as path,
          (select sum((e ->> 'bytes')::float8) from jsonb_array_elements(r.leftovers) e) as value, ${th} as threshold
        from root_latest r where r.leftovers <> '[]'::jsonb ${ws}
        union all
        select r.workspace_id, r.root_key, r.agent, r.path, r.bytes::float8, ${th}
        from root_latest r where r.kind = 'leftover' ${ws}) x
      where value >= ${th}`;
  },
  fields: { minBytes: { label: "Leftovers of at least", unit: "MiB", hint: "0: any size" } },
  items: () => "roots with AgentAPI leftovers",
  describe: (f) => ({
    message: `AgentAPI leftovers in ${where(f)} (${formatBytes(f.value)}).`,
    action:
      "Delete agentapi-state.json and agentapi.pid from the module folder: current modules no longer use AgentAPI.",
  }),
});
