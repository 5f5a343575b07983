import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRule, FULLNESS, num, percent } from "../rule";
import { FREE_SPACE_NOW } from "../wording";

/** A volume whose df Use% is at or above this: critical whatever its growth (a full disk no longer grows). */
export const volumeFull = defineRule({
  id: "volume-full",
  title: "Volume full",
  description:
    "A workspace's home volume is at or above 95% used, as df shows Use% (Coder's own volume alert is a percentage too).",
  enabled: true,
  severity: "critical",
  params: z.object({ usedPercent: percent }).strict(),
  defaults: { usedPercent: 95 },
  unit: "percent",
  scope: "workspace",
  urgency: FULLNESS,
  rows: (p, { ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
      w.volume_used_pct::float8 as value, ${num(p.usedPercent)} as threshold
    from workspaces w where w.volume_used_pct >= ${p.usedPercent} ${ws}`,
  describe: (f) => ({
    message: `The home volume is ${f.value}% used as df shows it (alert at ${f.threshold}%).`,
    action: FREE_SPACE_NOW,
  }),
});
