// Where a volume's Used bytes go, line by line, from the newest report's whole home: the agents' and modules'
// folders, the rest of the home by kind, files deleted but still open, files hidden under the mount points
// inside the home (measured by a reporter running as root), and what is left: files outside the home and the
// file system's own metadata, named with whatever the reporter could not measure. The lines add up to df's
// Used; the reserved blocks (Size − Used − Avail) are explained beside them, never in them.

import { HOME_KINDS, type HomeKind } from "@/lib/report-format/home-kinds";
import type { VolumeSummary } from "@/lib/format/volume";
import type { HomeUsage } from "@/lib/report-format/home";

export type HomeLineKey =
  "agents" | "modules" | "roots" | HomeKind | "rest" | "deleted-open" | "hidden-under-mounts" | "outside";
export type HomeLine = { key: HomeLineKey; label: string; bytes: number; note?: string };
export type HomeSplit = { used: number | null; lines: HomeLine[]; reserved: number | null };

export const HOME_KIND_LABELS: Record<HomeKind, string> = {
  "package-cache": "Package caches",
  "project-deps": "Project dependencies",
  containers: "Container storage",
  "ide-server": "IDE servers",
};

/** The fleet overview's split of a home: agents / modules / caches / projects / other (the home's total). */
export type FleetHomeSplit = { agents: number; modules: number; caches: number; projects: number; other: number };

/** The fleet split's parts, in the order the overview lists them. */
export const FLEET_HOME_PARTS = [
  "agents",
  "modules",
  "caches",
  "projects",
  "other",
] as const satisfies readonly (keyof FleetHomeSplit)[];

export function fleetSplitOf(h: HomeUsage): FleetHomeSplit {
  const caches = h.kinds["package-cache"] ?? 0;
  const projects = h.kinds["project-deps"] ?? 0;
  return {
    agents: h.roots.agents,
    modules: h.roots.modules,
    caches,
    projects,
    other: h.bytes - h.roots.agents - h.roots.modules - caches - projects,
  };
}

const mountNames = (h: HomeUsage) => (h.mounts ?? []).map((m) => `~/${m.path}`).join(", ") || "a mount point";

/** What remains of Used, named part by part: what no reporter can measure, and what this one did not. */
function outsideLine(h: HomeUsage): Omit<HomeLine, "bytes"> {
  const unmeasured = h.mounts?.length && h.hiddenUnderMounts === undefined;
  const parts = [
    "files elsewhere on the volume",
    unmeasured && `files hidden under ${mountNames(h)} (measured only by a reporter running as root)`,
    "the file system's own metadata (inode tables, journal)",
  ];
  return {
    key: "outside",
    label: unmeasured ? "Outside the home, and what no walk sees" : "Outside the home, and file system metadata",
    note: parts.filter(Boolean).join(", "),
  };
}

export function homeSplit(volume: VolumeSummary | null, h: HomeUsage): HomeSplit {
  const kinds = HOME_KINDS.filter((k) => h.kinds[k]).map((k): [HomeKind, number] => [k, h.kinds[k]!]);
  const lines: HomeLine[] = [
    { key: "agents", label: "Agents' folders", bytes: h.roots.agents },
    { key: "modules", label: "Modules' folders", bytes: h.roots.modules },
    { key: "roots", label: "Other measured folders", bytes: h.roots.other, note: "custom roots, cleanup trash" },
    ...kinds.map(([k, bytes]) => ({ key: k, label: HOME_KIND_LABELS[k], bytes })),
    {
      key: "rest",
      label: "Rest of the home",
      bytes: h.rest - kinds.reduce((s, [, b]) => s + b, 0),
      note: "its largest folders are listed below",
    },
  ];
  const open = h.deletedOpen?.bytes ?? 0;
  if (open > 0)
    lines.push({
      key: "deleted-open",
      label: "Deleted but still open",
      bytes: open,
      note: `${h.deletedOpen!.files} file(s) a process still holds: freed when it closes them`,
    });
  const hidden = h.hiddenUnderMounts ?? 0;
  if (hidden > 0)
    lines.push({
      key: "hidden-under-mounts",
      label: "Hidden under mount points",
      bytes: hidden,
      note: `written into ${mountNames(h)} before a volume was mounted there: freed by removing them from under the mount`,
    });
  if (volume) lines.push({ ...outsideLine(h), bytes: Math.max(0, volume.usedBytes - h.bytes - open - hidden) });
  return {
    used: volume ? volume.usedBytes : null,
    lines: lines.filter((l) => l.bytes > 0 || l.key === "agents"),
    reserved: volume ? Math.max(0, volume.sizeBytes - volume.usedBytes - volume.availBytes) : null,
  };
}
