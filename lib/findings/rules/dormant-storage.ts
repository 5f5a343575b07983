import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, MIB, num } from "../rule";

/**
 * Storage held by a workspace that Coder marked dormant: nobody uses it, so its agents' data is the cheapest to
 * reclaim. The value is the bytes at stake (the workspace's newest total); the threshold, the days it has been
 * dormant.
 */
export const dormantStorage = defineRule({
  id: "dormant-storage",
  title: "Dormant workspace holds storage",
  description:
    "A workspace that Coder marked dormant still holds agents' data: the cheapest storage to reclaim (from Coder's workspace sync).",
  enabled: true,
  severity: "warning",
  params: z.object({ minBytes: bytes }).strict(),
  defaults: { minBytes: 100 * MIB },
  unit: "bytes",
  scope: "workspace",
  // The more bytes at stake, the more urgent.
  urgency: sql`value`,
  rows: (p, { now, ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent,
      null::text as path, w.total_bytes::float8 as value,
      floor(extract(epoch from (${now} - w.coder_dormant_at)) / 86400)::float8 as threshold
    from workspaces w where w.coder_dormant_at is not null and w.total_bytes::float8 >= ${num(Math.max(1, p.minBytes))} ${ws}`,
  fields: { minBytes: { label: "Holding at least", unit: "MiB" } },
  describe: (f) => ({
    message: `Dormant in Coder for ${f.threshold.toFixed(0)} days, and still holds ${formatBytes(f.value)}.`,
    action:
      "Free the agents' data here (nobody uses the workspace), or delete the workspace in Coder if it is no longer needed.",
  }),
});
