import { agentDataLost, agentSessionsLost } from "./agent-data-lost";
import { agentapiState } from "./agentapi-state";
import { belowAgentMinimum } from "./below-agent-minimum";
import { homeNotPersistent } from "./home-not-persistent";
import { scriptDataInUse } from "./script-data-in-use";

/** The rules about what a workspace loses at a restart, by id. */
export const restartRules = {
  "home-not-persistent": homeNotPersistent,
  "agent-sessions-lost": agentSessionsLost,
  "agent-data-lost": agentDataLost,
  "script-data-in-use": scriptDataInUse,
  "below-agent-minimum": belowAgentMinimum,
  "agentapi-state": agentapiState,
} as const;
