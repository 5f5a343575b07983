import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRule, PAST_THRESHOLD } from "../rule";
import { isSilent, silenceExpected, silentSince } from "../silence";

/**
 * A workspace whose newest report is older than this while Coder says it runs (or Coder does not describe it):
 * its reporter is broken. Silence of a workspace stopped or dormant in Coder is expected, and no finding.
 */
export const silentWorkspace = defineRule({
  id: "silent-workspace",
  title: "Stopped reporting",
  description:
    "No report for over 24 hours from a workspace that runs in Coder (or that Coder does not describe): its reporter is broken. Workspaces stopped or dormant in Coder are left out.",
  enabled: true,
  severity: "info",
  params: z
    .object({
      hours: z
        .number()
        .positive()
        .max(24 * 3650),
    })
    .strict(),
  defaults: { hours: 24 },
  unit: "hours",
  scope: "workspace",
  urgency: PAST_THRESHOLD,
  rows: (
    p,
    { now, ws },
  ) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
      (extract(epoch from (${now} - ${silentSince})) / 3600)::float8 as value, ${p.hours}::float8 as threshold
    from workspaces w where ${isSilent(p.hours, now)} and not ${silenceExpected} ${ws}`,
  fields: { hours: { label: "No report for more than", unit: "hours" } },
  describe: (f) => ({
    message: `No report for ${f.value.toFixed(0)} hours (over ${f.threshold} hours).`,
    action:
      "The workspace runs in Coder but sends nothing: check the reporter's coder_script logs in the workspace and its token.",
  }),
});
