import "server-only";
import { and, eq, inArray, isNull, like, ne, notInArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { RECIPES, REPORTER_DIR, type Recipe } from "@/lib/catalog/recipes";
import { rootPatternPrefix, rootPatternRegex, UNCLEANABLE_KINDS } from "@/lib/catalog/recipe-roots";
import type { RunRequest, Scope } from "@/lib/cleanup/protocol";
import { reports, rootLatest, workspaces } from "../schema";
import type { Db } from "../types";
import { silentHours } from "@/lib/findings/rules";
import { refuseDeletedWorkspaces } from "./cleanup-deleted";
import { getRules } from "./findings";
import { tallyPreview, type CleanupPreview } from "./cleanup-preview-tally";

export type { CleanupPreview, WorkspacePreview } from "./cleanup-preview-tally";

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
export function runRoots(recipe: Recipe | null, customRootKey: string | undefined): SQL {
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
  const rows = await db
    .select({
      ...previewColumns(recipe?.unitsSince !== undefined ? sql`true` : undefined),
      // As JSON text, parsed by the tally as it prices the root (cleanup-preview-tally.ts says why).
      usage: recipe ? sql<string | null>`(${rootLatest.recipes} -> ${recipe.id})::text` : sql<null>`null`,
    })
    .from(rootLatest)
    .innerJoin(workspaces, eq(workspaces.id, rootLatest.workspaceId))
    // Workspaces deleted in Coder are out of every scope (a scope naming one is refused: cleanup-deleted.ts).
    .where(and(runRoots(recipe, request.custom?.rootKey), scopeMatch(request.scope), isNull(workspaces.deletedAt)));
  return tallyPreview(rows, recipe, request, { ...opts, now, silentHours: hours });
}

/**
 * A timestamp as the milliseconds a Date holds (truncated, as the driver's parse truncates), read as a number: a
 * fleet-wide preview reads two a workspace, and parsing them into Dates took a third of its read at 10,000.
 */
const epochMs = (t: SQL | AnyColumn) => sql<number>`floor(extract(epoch from ${t}) * 1000)::float8`;

/**
 * What every preview reads of a latest root besides the recipe's usage; the reporter's version (by the reports
 * table's key) only on the roots where a recipe needs it (`unitsSince`), which `versionWhere` picks out.
 */
export function previewColumns(versionWhere: SQL | undefined) {
  return {
    workspaceId: rootLatest.workspaceId,
    rootKey: rootLatest.rootKey,
    collectedAt: epochMs(rootLatest.collectedAt),
    name: workspaces.name,
    owner: workspaces.owner,
    // enrollment stands for the report a workspace never sent, as the silent-workspace rule counts it
    lastSeen: epochMs(sql`coalesce(${workspaces.lastCollectedAt}, ${workspaces.firstSeenAt})`),
    // Reporters before 0.3 send no recipe usage at all; 0.3 sends an entry for every recipe of the root.
    hasUsage: sql<boolean>`${rootLatest.recipes} <> '{}'::jsonb`,
    reporterVersion: versionWhere
      ? sql<string | null>`case when ${versionWhere} then (select ${reports.reporterVersion} from ${reports}
          where ${reports.workspaceId} = ${rootLatest.workspaceId} and ${reports.collectedAt} = ${rootLatest.collectedAt}
          and ${reports.id} = ${rootLatest.reportId}) end`
      : sql<null>`null`,
  };
}
