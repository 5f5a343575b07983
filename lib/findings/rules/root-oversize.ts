import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, GIB, MIB, num, PAST_THRESHOLD } from "../rule";
import { agentAction, where } from "../wording";

/**
 * The reporter's own module folder keeps the Node.js runtime the dashboard serves (about 105 MB) on images without
 * Node.js: expected there, so it is added to that root's threshold rather than reported as bloat.
 */
export const REPORTER_ROOT_KEY = "coder/storage-reporter";
export const REPORTER_RUNTIME_ALLOWANCE = 128 * MIB;

/** A root larger than what its agent normally needs (per agent slug, else `defaultBytes`). */
export const rootOversize = defineRule({
  id: "root-oversize",
  title: "Root over its expected size",
  description:
    "A storage root is larger than its agent normally needs (Claude Code 1 GiB, Gemini 400 MiB, others 50 MiB; the reporter's own module 128 MiB more, for the Node.js runtime it keeps on images without one).",
  enabled: true,
  severity: "warning",
  params: z.object({ defaultBytes: bytes, byAgent: z.record(z.string().min(1).max(100), bytes) }).strict(),
  defaults: { defaultBytes: 50 * MIB, byAgent: { "claude-code": 1 * GIB, gemini: 400 * MIB } },
  unit: "bytes",
  scope: "root",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    const th = sql`(coalesce((${JSON.stringify(p.byAgent)}::jsonb ->> r.agent)::float8, ${num(p.defaultBytes)})
      + case when r.root_key = ${REPORTER_ROOT_KEY} then ${num(REPORTER_RUNTIME_ALLOWANCE)} else 0 end)`;
    return sql`select r.workspace_id, r.root_key, r.agent, null::text as path, r.bytes::float8 as value, ${th} as threshold
      from root_latest r where r.kind not in ('script-data', 'leftover') and r.bytes::float8 > ${th} ${ws}`;
  },
  fields: {
    defaultBytes: { label: "Expected size of any other agent's root", unit: "MiB" },
    byAgent: { label: "Expected size of a root of", unit: "MiB" },
  },
  items: () => "roots over their expected size",
  describe: (f) => ({
    message: `${where(f)} holds ${formatBytes(f.value)}, over the ${formatBytes(f.threshold)} expected for ${f.agent ?? "this agent"}.`,
    action: agentAction(f.agent),
  }),
});
