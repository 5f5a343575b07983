import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { defineRule, num, SOONNESS } from "../rule";
import { FREE_SPACE_NOW } from "../wording";

/** A volume below the volume-full threshold forecast to fill within this many days. */
export const volumeFilling = defineRule({
  id: "volume-filling",
  title: "Volume fills soon",
  description: "A workspace's home volume, not yet full, is forecast to fill within 7 days at its current growth.",
  enabled: true,
  severity: "critical",
  params: z.object({ days: z.number().positive().max(3650) }).strict(),
  defaults: { days: 7 },
  unit: "days",
  scope: "workspace",
  urgency: SOONNESS,
  rows: (p, { fullAtPercent, now, ws }): SQL => {
    const days = num(p.days);
    // A volume the volume-full rule already flags is past forecasting.
    const notFull: SQL = fullAtPercent !== null ? sql`and coalesce(w.volume_used_pct, 0) < ${fullAtPercent}` : sql``;
    return sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
        greatest(extract(epoch from (w.forecast_full_at - ${now})) / 86400, 0)::float8 as value, ${days} as threshold
      from workspaces w where w.forecast_full_at is not null
        and w.forecast_full_at <= ${now} + make_interval(secs => ${days} * 86400) ${notFull} ${ws}`;
  },
  fields: { days: { label: "Forecast to fill within", unit: "days" } },
  describe: (f) => ({
    message:
      f.value < 0.05
        ? `The home volume is full (alert when under ${f.threshold} days from full).`
        : f.value < 1
          ? `The home volume is forecast to fill in ${Math.max(1, Math.round(f.value * 24))} hours (alert under ${f.threshold} days).`
          : `The home volume is forecast to fill in ${f.value.toFixed(1)} days (alert under ${f.threshold} days).`,
    action: FREE_SPACE_NOW,
  }),
});
