import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRule, PAST_THRESHOLD } from "../rule";

// AgentAPI restores a Coder Task's chat from its state file (AGENTAPI_STATE_FILE) after a restart. Where state
// persistence is on (the running AgentAPI saves state, or a state file was written) and the file is missing, or
// older than the agent's newest session by more than `hours`, the chat starts over or resumes behind.

const entry = sql`a`;
const state = sql`(${entry} ->> 'stateMtime')::timestamptz`;
/** The newest modification in the agent's own folders: its newest session. */
const newest = sql`(select max(s.newest_mtime) from root_latest s
  where s.workspace_id = r.workspace_id and s.agent = r.agent and s.kind = 'tool')`;

export const agentapiState = defineRule({
  id: "agentapi-state",
  title: "AgentAPI state missing or stale",
  description:
    "AgentAPI's state persistence is on, but its state file is missing or much older than the agent's newest session: after a restart the Tasks chat starts over, or resumes from an old point.",
  enabled: true,
  severity: "warning",
  params: z
    .object({
      hours: z
        .number()
        .nonnegative()
        .max(24 * 3650),
    })
    .strict(),
  defaults: { hours: 24 },
  unit: "hours",
  scope: "root",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => sql`select workspace_id, root_key, agent, path, value, threshold from (
      select r.workspace_id, r.root_key, r.agent,
        ${entry} ->> 'stateFile' || case when ${state} is null then ' (missing)' else '' end as path,
        coalesce(extract(epoch from (${newest} - ${state})) / 3600, 0)::float8 as value,
        ${p.hours}::float8 as threshold, ${state} is null as missing
      from workspaces w cross join lateral jsonb_array_elements(coalesce(w.persistence -> 'agentapi', '[]'::jsonb)) a
        join root_latest r on r.workspace_id = w.id and r.root_key = ${entry} ->> 'root'
      where (${entry} ->> 'persistence' = 'on' or ${state} is not null) ${ws}) x
    where missing or value > threshold`,
  fields: { hours: { label: "State file behind the sessions by more than", unit: "hours" } },
  items: () => "AgentAPI state files missing or stale",
  describe: (f) =>
    f.path?.endsWith(" (missing)")
      ? {
          message: `AgentAPI saves state in ${f.rootKey ?? "the module folder"}, but its state file ${f.path} is not there.`,
          action:
            "Check that the module's state_file_path lies on the home's volume and that the shutdown script runs (it signals AgentAPI to save): without the file the Tasks chat starts over after a restart.",
        }
      : {
          message: `AgentAPI's state file ${f.path ?? ""} is ${Math.round(f.value)} hours older than the agent's newest session.`,
          action:
            "AgentAPI saves its state when the workspace stops: check that the module's shutdown script runs (agentapi 0.12.0 or later) and that the state file lies on the home's volume.",
        },
});
