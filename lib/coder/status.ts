// Coder's workspace statuses (its latest build's status, codersdk.WorkspaceStatus) and how the pages word them.
// Plain data: the parameter schemas, the pages in the browser and the server import it.

export const CODER_STATUSES = [
  "pending",
  "starting",
  "running",
  "stopping",
  "stopped",
  "failed",
  "canceling",
  "canceled",
  "deleting",
  "deleted",
] as const;
export type CoderStatus = (typeof CODER_STATUSES)[number];

/** A workspace's state in Coder as one short label: "dormant" wins over the build's status. */
export function coderStateLabel(w: { coderStatus: string | null; dormantAt: string | null }): string | null {
  if (w.coderStatus === "deleted") return "deleted";
  if (w.dormantAt) return "dormant";
  return w.coderStatus;
}
