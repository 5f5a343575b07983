import { formatBytes } from "@/lib/format/bytes";
import type { Cause, Notice } from "./types";

// The cleanup ahead notice (pure): an enabled policy that acts will delete this workspace's data at its next run.
// Its state is the policy and that run: each run that will take something is told once, ahead of it; a run that
// would take nothing (the data went, or was protected) clears the state.

/** What one policy's next run will take from one workspace, from the policy's preview of it. */
export type PlannedCleanup = {
  policyId: string;
  policy: string;
  /** The recipe's title, or the custom rule's folder. */
  what: string;
  at: Date;
  bytes: number;
  /** The roots it acts on, largest first. */
  roots: Cause[];
};

export type WorkspaceRef = Notice["workspace"];

/** The notice for the soonest of a workspace's planned cleanups (null when none takes anything). */
export function cleanupAheadNotice(ws: WorkspaceRef, planned: PlannedCleanup[], now: Date): Notice | null {
  const next = planned
    .filter((p) => p.bytes > 0)
    .sort((a, b) => a.at.getTime() - b.at.getTime() || b.bytes - a.bytes)[0];
  if (!next) return null;
  const at = next.at.toISOString();
  return {
    kind: "cleanup-ahead",
    stateKey: `cleanup:${next.policyId}:${at}`,
    level: 1,
    workspace: ws,
    figure: `the policy "${next.policy}" deletes ${formatBytes(next.bytes)} of ${next.what} at ${at.slice(0, 16).replace("T", " ")} UTC`,
    causes: next.roots.slice(0, 3),
    action: { type: "protect", policy: next.policy, at, paths: next.roots.map((r) => r.path) },
    decidedAt: now.toISOString(),
  };
}
