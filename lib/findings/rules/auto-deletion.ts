import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRule } from "../rule";

const DAY_MS = 86_400_000;

/**
 * A workspace Coder will delete by itself (its deleting_at: a dormant workspace's auto-deletion) within N days.
 * The value is the days left; the threshold is the deletion's instant in days since 1970, so that the message can
 * name its date (a finding carries numbers only).
 */
export const autoDeletion = defineRule({
  id: "auto-deletion",
  title: "Marked for auto-deletion",
  description:
    "Coder will delete the workspace by itself (a dormant workspace's auto-deletion) within 30 days, with what it holds.",
  enabled: true,
  severity: "warning",
  params: z.object({ days: z.number().int().min(1).max(3650) }).strict(),
  defaults: { days: 30 },
  unit: "days",
  scope: "workspace",
  // The sooner, the more urgent.
  urgency: sql`1 / (greatest(value, 0) + 1)`,
  rows: (p, { now, ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent,
      null::text as path, (extract(epoch from (w.coder_deleting_at - ${now})) / 86400)::float8 as value,
      (extract(epoch from w.coder_deleting_at) / 86400)::float8 as threshold
    from workspaces w where w.coder_deleting_at is not null
      and w.coder_deleting_at < ${now} + make_interval(days => ${p.days}) ${ws}`,
  fields: { days: { label: "Deleted within", unit: "days" } },
  describe: (f) => {
    const day = new Date(f.threshold * DAY_MS).toISOString().slice(0, 10);
    const when = f.value <= 0 ? "any moment now" : `in ${f.value.toFixed(1)} days`;
    return {
      message: `Coder deletes this workspace on ${day} (${when}).`,
      action: `Tell the owner: using the workspace before ${day} keeps it, and its storage goes with it otherwise. Free its agents' data here if none of it is needed.`,
    };
  },
});
