import type { InputWidth } from "@/components/ui/field";

/** The recipe select's last choice: a glob of the admin's own instead of a recipe. */
export const CUSTOM = { value: "custom", label: "Custom target (a glob in one root)" };

export const CUSTOM_HINT =
  "Files or folders matching a glob inside one root of the report. The reporter never leaves the root: the glob is relative to it, without '..'.";

/** The run's limits typed as text (the draft keeps what was typed; the request builder reads it). */
export const LIMITS: {
  key: "olderThanDays" | "keepNewest" | "capMiB";
  field: { label: string; unit: string; "aria-label": string; width: InputWidth };
}[] = [
  { key: "olderThanDays", field: { label: "Older than", unit: "days", "aria-label": "Older than days", width: 80 } },
  { key: "keepNewest", field: { label: "Keep newest", unit: "units", "aria-label": "Keep newest", width: 80 } },
  { key: "capMiB", field: { label: "Cap these units at", unit: "MiB", "aria-label": "Cap MiB", width: 90 } },
];

export const scopeKinds = (workspacesByName?: boolean) => [
  { value: "all", label: "Whole fleet" },
  { value: "workspaceIds", label: workspacesByName ? "Workspaces" : "Workspaces (ids)" },
  { value: "owners", label: "Owners" },
  { value: "templates", label: "Templates" },
];

export const ACTIONS = [
  { value: "trash", label: "Move to trash (restorable)" },
  { value: "delete", label: "Delete" },
];

export function StatusChangesText() {
  return (
    <span>
      Count status changes as activity (ctime, not only modification times).{" "}
      <span className="muted">
        Off by default: Kubernetes workspaces (fsGroup) and templates that chown the home at start reset every ctime at
        each start, so nothing would ever look old. Turn it on where files were restored from a backup with their old
        modification times. The preview counts modification times only.
      </span>
    </span>
  );
}
