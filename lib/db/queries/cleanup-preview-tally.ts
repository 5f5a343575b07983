import "server-only";
import { withRecipeFloor, type Recipe } from "@/lib/catalog/recipes";
import { previewFromUsage } from "@/lib/cleanup/preview";
import { outdatedUnitsReason } from "@/lib/cleanup/reporter-units";
import type { RunRequest } from "@/lib/cleanup/protocol";
import type { RecipeUsage } from "@/lib/report-format/schema";

// A preview's figures from the latest roots it read: one workspace's roots summed, the workspaces sorted and
// split into those a run acts on, the silent, the outdated and those without usage. The one-recipe preview
// (cleanup-preview.ts) and the every-recipe one (cleanup-preview-many.ts) both end here, so the figure of a
// recipe is the same whichever asked for it.

export type WorkspacePreview = {
  workspaceId: string;
  name: string;
  owner: string;
  /** The roots (report keys) the recipe acts on in this workspace. */
  roots: string[];
  units: number;
  bytes: number;
  estimate: boolean;
  protectedUnits: number;
  protectedBytes: number;
  /** No report for longer than the silent-workspace rule allows: its job would wait for a reporter that is away. */
  silent: boolean;
};

export type CleanupPreview = {
  /** Workspaces with something to act on, largest first (the response lists at most `listed` of them). */
  workspaces: WorkspacePreview[];
  total: {
    workspaces: number;
    units: number;
    bytes: number;
    estimate: boolean;
    protectedUnits: number;
    protectedBytes: number;
  };
  /** In scope with the recipe's root but nothing the parameters select. */
  zeroWorkspaces: number;
  /** In scope with the root, but their reporter sends no recipe usage (before 0.3): no job is queued for them. */
  withoutUsage: { count: number; workspaces: { workspaceId: string; name: string; owner: string }[] };
  /**
   * In scope with usage, but counted by a reporter older than the recipe's `unitsSince`: their figure is smaller
   * than what their reporter's job would act on once updated, so no job is queued for them; `reason` says why.
   */
  outdated: { count: number; workspaces: { workspaceId: string; name: string; owner: string; reason: string }[] };
  /**
   * Silent workspaces with something to act on, left out of the run unless it asks for them (includeSilent), so a
   * run is not queued for workspaces whose reporter is away; `included` says whether they count in the total.
   */
  silent: { count: number; bytes: number; hours: number; included: boolean; workspaces: WorkspacePreview[] };
  /** A custom target has no usage in reports: its figures are unknown and every workspace with the root gets a job. */
  unknown: boolean;
  truncated: boolean;
};

/** One latest root a run would act on, as read for a preview. */
export type PreviewRow = {
  workspaceId: string;
  rootKey: string;
  /** When the root's report was collected, in epoch milliseconds. */
  collectedAt: number;
  name: string;
  owner: string;
  /** The workspace's last report, or its enrollment when it never sent one, in epoch milliseconds. */
  lastSeen: number;
  /**
   * The recipe's usage in the root, or its JSON text; null when the root's report has none for it. A fleet-wide
   * preview reads it as text and each root's is parsed as it is priced: the driver's parse of every row before
   * the tally made the whole preview about a third slower at 10,000 workspaces.
   */
  usage: RecipeUsage | string | null;
  /** Whether the root's reporter sends recipe usage at all (0.3 and later). */
  hasUsage: boolean;
  reporterVersion: string | null;
};

export type TallyOptions = { listAll?: boolean; includeSilent?: boolean; now: Date; silentHours: number };

const LISTED = 500;
const NO_USAGE: RecipeUsage = { units: 0, bytes: 0, protectedUnits: 0, protectedBytes: 0, byAge: [] };

export function tallyPreview(
  rows: readonly PreviewRow[],
  recipe: Recipe | null,
  request: Pick<RunRequest, "params" | "minAgeHours">,
  opts: TallyOptions,
): CleanupPreview {
  const { now, silentHours: hours } = opts;
  const quietSince = now.getTime() - hours * 3600_000;
  type Tally = WorkspacePreview & { hasUsage: boolean; outdated: string | null };
  const byWorkspace = new Map<string, Tally>();
  const params = recipe && { ...withRecipeFloor(recipe.id, request.params), minAgeHours: request.minAgeHours };
  for (const r of rows) {
    const w = byWorkspace.get(r.workspaceId) ?? {
      workspaceId: r.workspaceId,
      name: r.name,
      owner: r.owner,
      roots: [],
      units: 0,
      bytes: 0,
      estimate: false,
      protectedUnits: 0,
      protectedBytes: 0,
      silent: r.lastSeen < quietSince,
      hasUsage: false,
      outdated: null,
    };
    byWorkspace.set(r.workspaceId, w);
    w.roots.push(r.rootKey);
    if (!recipe) continue;
    const usage =
      (typeof r.usage === "string" ? (JSON.parse(r.usage) as RecipeUsage) : r.usage) ?? (r.hasUsage ? NO_USAGE : null);
    if (!usage) continue;
    w.hasUsage = true;
    w.outdated ??= outdatedUnitsReason(recipe, r.reporterVersion);
    const p = previewFromUsage(usage, params!, { collectedAt: r.collectedAt, now });
    w.units += p.units;
    w.bytes += p.bytes;
    w.estimate ||= p.estimate && p.bytes > 0;
    w.protectedUnits += p.protectedUnits;
    w.protectedBytes += p.protectedBytes;
  }

  const outdated = [...byWorkspace.values()].filter((w) => w.outdated);
  const all = [...byWorkspace.values()].filter((w) => !w.outdated);
  const selecting = recipe ? all.filter((w) => w.hasUsage && w.bytes > 0) : all;
  const silent = selecting.filter((w) => w.silent);
  const acting = opts.includeSilent ? selecting : selecting.filter((w) => !w.silent);
  const without = recipe ? all.filter((w) => !w.hasUsage) : [];
  acting.sort((a, b) => b.bytes - a.bytes || a.workspaceId.localeCompare(b.workspaceId));
  const strip = ({ hasUsage: _h, outdated: _o, ...w }: Tally): WorkspacePreview => w;
  const counted = recipe ? all.filter((w) => w.hasUsage) : all;
  return {
    workspaces: (opts.listAll ? acting : acting.slice(0, LISTED)).map(strip),
    total: {
      workspaces: acting.length,
      units: acting.reduce((s, w) => s + w.units, 0),
      bytes: acting.reduce((s, w) => s + w.bytes, 0),
      estimate: acting.some((w) => w.estimate),
      protectedUnits: counted.reduce((s, w) => s + w.protectedUnits, 0),
      protectedBytes: counted.reduce((s, w) => s + w.protectedBytes, 0),
    },
    zeroWorkspaces: recipe ? counted.length - selecting.length : 0,
    withoutUsage: {
      count: without.length,
      workspaces: without.slice(0, LISTED).map(({ workspaceId, name, owner }) => ({ workspaceId, name, owner })),
    },
    outdated: {
      count: outdated.length,
      workspaces: outdated
        .slice(0, LISTED)
        .map(({ workspaceId, name, owner, outdated: reason }) => ({ workspaceId, name, owner, reason: reason! })),
    },
    silent: {
      count: silent.length,
      bytes: silent.reduce((n, w) => n + w.bytes, 0),
      hours,
      included: opts.includeSilent === true,
      workspaces: silent.slice(0, LISTED).map(strip),
    },
    unknown: !recipe,
    truncated: !opts.listAll && acting.length > LISTED,
  };
}
