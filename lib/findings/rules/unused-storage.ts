import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, GIB, num } from "../rule";

/**
 * Storage held by a workspace nobody used for over N days (Coder's last_used_at), dormant ones left to the
 * dormant-storage rule. The value is the bytes at stake; the threshold, the days since its last use.
 */
export const unusedStorage = defineRule({
  id: "unused-storage",
  title: "Unused workspace holds storage",
  description:
    "A workspace nobody used for over 30 days (Coder's last use) still holds agents' data (from Coder's workspace sync).",
  enabled: true,
  severity: "info",
  params: z
    .object({
      days: z.number().int().min(1).max(3650),
      minBytes: bytes,
    })
    .strict(),
  defaults: { days: 30, minBytes: GIB },
  unit: "bytes",
  scope: "workspace",
  urgency: sql`value`,
  rows: (p, { now, ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent,
      null::text as path, w.total_bytes::float8 as value,
      floor(extract(epoch from (${now} - w.coder_last_used_at)) / 86400)::float8 as threshold
    from workspaces w where w.coder_last_used_at < ${now} - make_interval(days => ${p.days})
      and w.coder_dormant_at is null and w.total_bytes::float8 >= ${num(Math.max(1, p.minBytes))} ${ws}`,
  fields: {
    days: { label: "Not used in Coder for more than", unit: "days" },
    minBytes: { label: "Holding at least", unit: "MiB" },
  },
  describe: (f) => ({
    message: `Not used in Coder for ${f.threshold.toFixed(0)} days, and holds ${formatBytes(f.value)}.`,
    action: "Free the agents' data here, or ask the owner whether the workspace is still needed.",
  }),
});
