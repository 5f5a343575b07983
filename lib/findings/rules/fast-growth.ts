import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, MIB, num, PAST_THRESHOLD } from "../rule";

/** A workspace whose used space grows faster than this (the workspace's fitted growth). */
export const fastGrowth = defineRule({
  id: "fast-growth",
  title: "Fast growth",
  description: "A workspace's used space grows faster than 500 MiB per day.",
  enabled: true,
  severity: "warning",
  params: z.object({ bytesPerDay: bytes }).strict(),
  defaults: { bytesPerDay: 500 * MIB },
  unit: "bytesPerDay",
  scope: "workspace",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    const th = num(p.bytesPerDay);
    return sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
        w.growth_bytes_per_day::float8 as value, ${th} as threshold
      from workspaces w where w.growth_bytes_per_day > ${th} ${ws}`;
  },
  fields: { bytesPerDay: { label: "Used space growing faster than", unit: "MiB per day" } },
  describe: (f) => ({
    message: `Used space grows by ${formatBytes(f.value)} per day (limit ${formatBytes(f.threshold)} per day).`,
    action: "Open the workspace's usage by root to see which root grows, then apply that agent's retention policy.",
  }),
});
