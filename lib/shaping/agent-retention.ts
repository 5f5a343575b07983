// Pure shaping for the retention rows of the workspace page: each agent whose own retention the dashboard
// knows, what it keeps here, beside how much of its folder is older than 30 days and its oldest file.
import { effectiveRetention, RETENTION_AGENTS, type EffectiveRetention } from "@/lib/catalog/retention";
import type { AgeBreakdown, AgentRetention } from "@/lib/report-format/schema";

export type RetentionRow = {
  agent: string;
  retention: EffectiveRetention;
  /** Bytes of files older than 30 days in the agent's own folder (the "90d" and "older" age buckets). */
  olderBytes: number;
  /** Its oldest file's modification time. */
  oldestMtime: string | null;
};

type Root = { key: string; agent: string; kind: string; ages: AgeBreakdown; oldestMtime: string | null };

/** Bytes of a root's files older than 30 days. */
export const olderThan30Days = (ages: AgeBreakdown) => (ages["90d"]?.bytes ?? 0) + (ages.older?.bytes ?? 0);

/**
 * One row per agent with its own folder (`<agent>:data`) in the workspace, in the catalog's order; `settings`
 * as the newest report carried them (null: its reporter does not read them).
 */
export function retentionRows(roots: readonly Root[], settings: AgentRetention | null): RetentionRow[] {
  return RETENTION_AGENTS.flatMap((agent) => {
    const root = roots.find((r) => r.kind === "tool" && r.key === `${agent}:data`);
    const retention = root ? effectiveRetention(agent, settings) : null;
    if (!root || !retention) return [];
    return [{ agent, retention, olderBytes: olderThan30Days(root.ages), oldestMtime: root.oldestMtime }];
  });
}
