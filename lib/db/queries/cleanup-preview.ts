import "server-only";
import { and, eq, inArray, isNull, like, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import { RECIPES, REPORTER_DIR, withRecipeFloor, type Recipe, type RecipeId } from "@/lib/catalog/recipes";
import { rootPatternPrefix, rootPatternRegex, UNCLEANABLE_KINDS } from "@/lib/catalog/recipe-roots";
import { MIN_AGE_HOURS } from "@/lib/cleanup/defaults";
import { previewFromUsage } from "@/lib/cleanup/preview";
import { outdatedUnitsReason } from "@/lib/cleanup/reporter-units";
import type { RunRequest, Scope } from "@/lib/cleanup/protocol";
import type { RecipeUsage } from "@/lib/report-format/schema";
import { reports, rootLatest, workspaces } from "../schema";
import type { Db } from "../types";
import { silentHours } from "@/lib/findings/rules";
import { refuseDeletedWorkspaces } from "./cleanup-deleted";
import { getRules } from "./findings";

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

const LISTED = 500;

/** One root pattern as SQL over root_latest.root_key: an exact key by index, a pattern by its prefix and regex. */
function rootPatternSql(pattern: string): SQL {
  if (!pattern.includes("*")) return eq(rootLatest.rootKey, pattern);
  const prefix = rootPatternPrefix(pattern);
  const regex = sql`${rootLatest.rootKey} ~ ${rootPatternRegex(pattern)}`;
  return prefix ? and(like(rootLatest.rootKey, `${prefix.replace(/[%_\\]/g, "\\$&")}%`), regex)! : regex;
}

/**
 * The roots a run acts on, by the rule the reporter applies (lib/catalog/recipe-roots.ts): a recipe's patterns on
 * any root but a custom one, a custom rule's one key; never the trash, leftovers or the reporter's own folder.
 */
function runRoots(recipe: Recipe | null, customRootKey: string | undefined): SQL {
  const cleanable = and(notInArray(rootLatest.kind, [...UNCLEANABLE_KINDS]), ne(rootLatest.path, REPORTER_DIR));
  if (!recipe) return and(eq(rootLatest.rootKey, customRootKey!), cleanable)!;
  return and(
    or(...recipe.roots.map(rootPatternSql)),
    ne(rootLatest.kind, "custom"),
    cleanable,
    recipe.orphanedOnly ? eq(rootLatest.orphaned, true) : undefined,
  )!;
}

export function scopeMatch(scope: Scope): SQL | undefined {
  if ("workspaceIds" in scope) return inArray(workspaces.id, scope.workspaceIds);
  if ("owners" in scope) return inArray(workspaces.owner, scope.owners);
  if ("templates" in scope) return inArray(workspaces.template, scope.templates);
  return undefined;
}

/**
 * What a run would free, per workspace and in total, from the latest report of each workspace in scope. Reads
 * root_latest by root key (its root_key index), never the history, so a fleet-wide preview costs one
 * pass over the matching roots.
 */
export async function previewRun(
  db: Db,
  request: Pick<RunRequest, "recipe" | "custom" | "params" | "scope" | "minAgeHours">,
  opts: { listAll?: boolean; now?: Date; refuseDeleted?: boolean; includeSilent?: boolean; silentHours?: number } = {},
): Promise<CleanupPreview> {
  // An admin's preview of a scope that names a workspace deleted in Coder is refused, as its run would be.
  if (opts.refuseDeleted && "workspaceIds" in request.scope)
    await refuseDeletedWorkspaces(db, request.scope.workspaceIds);
  // Reports age while they wait: a unit 29 days old in yesterday's report is 30 days old now.
  const now = opts.now ?? new Date();
  const recipe = request.recipe ? RECIPES.find((r) => r.id === request.recipe)! : null;
  const hours = opts.silentHours ?? silentHours(await getRules(db));
  const quietSince = now.getTime() - hours * 3600_000;
  const rows = await db
    .select({
      workspaceId: rootLatest.workspaceId,
      rootKey: rootLatest.rootKey,
      bytes: rootLatest.bytes,
      collectedAt: rootLatest.collectedAt,
      name: workspaces.name,
      owner: workspaces.owner,
      // enrollment stands for the report a workspace never sent, as the silent-workspace rule counts it
      lastSeen: sql<Date | string>`coalesce(${workspaces.lastCollectedAt}, ${workspaces.firstSeenAt})`,
      usage: recipe ? sql<RecipeUsage | null>`${rootLatest.recipes} -> ${recipe.id}` : sql<null>`null`,
      // Reporters before 0.3 send no recipe usage at all; 0.3 sends an entry for every recipe of the root.
      hasUsage: sql<boolean>`${rootLatest.recipes} <> '{}'::jsonb`,
      // The release that counted this root's units, from its report (by that table's key); only where it matters.
      reporterVersion: recipe?.unitsSince
        ? sql<
            string | null
          >`(select ${reports.reporterVersion} from ${reports} where ${reports.workspaceId} = ${rootLatest.workspaceId}
            and ${reports.collectedAt} = ${rootLatest.collectedAt} and ${reports.id} = ${rootLatest.reportId})`
        : sql<null>`null`,
    })
    .from(rootLatest)
    .innerJoin(workspaces, eq(workspaces.id, rootLatest.workspaceId))
    // Workspaces deleted in Coder are out of every scope (a scope naming one is refused: cleanup-deleted.ts).
    .where(and(runRoots(recipe, request.custom?.rootKey), scopeMatch(request.scope), isNull(workspaces.deletedAt)));

  type Tally = WorkspacePreview & { hasUsage: boolean; outdated: string | null };
  const byWorkspace = new Map<string, Tally>();
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
      silent: new Date(r.lastSeen).getTime() < quietSince,
      hasUsage: false,
      outdated: null,
    };
    byWorkspace.set(r.workspaceId, w);
    w.roots.push(r.rootKey);
    if (!recipe) continue;
    const usage =
      r.usage ?? (r.hasUsage ? { units: 0, bytes: 0, protectedUnits: 0, protectedBytes: 0, byAge: [] } : null);
    if (!usage) continue;
    w.hasUsage = true;
    w.outdated ??= outdatedUnitsReason(recipe, r.reporterVersion);
    const p = previewFromUsage(
      usage,
      { ...withRecipeFloor(request.recipe, request.params), minAgeHours: request.minAgeHours },
      { collectedAt: r.collectedAt, now },
    );
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

/** For the catalog: what each recipe would free across the fleet now with its default parameters. */
export async function fleetFreeable(
  db: Db,
): Promise<Record<RecipeId, { bytes: number; workspaces: number; estimate: boolean }>> {
  const out = {} as Record<RecipeId, { bytes: number; workspaces: number; estimate: boolean }>;
  const hours = silentHours(await getRules(db));
  for (const r of RECIPES) {
    const p = await previewRun(
      db,
      {
        recipe: r.id,
        params: { olderThanDays: r.defaultOlderThanDays },
        scope: { all: true },
        minAgeHours: MIN_AGE_HOURS.default,
      },
      { silentHours: hours },
    );
    out[r.id] = { bytes: p.total.bytes, workspaces: p.total.workspaces, estimate: p.total.estimate };
  }
  return out;
}
