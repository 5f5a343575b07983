import "server-only";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { resolveRange, type Day, type DayRange, type RangeParams } from "@/lib/series";
import type { WorkspaceRef } from "@/lib/findings/finding";
import { OTHER_AGENT } from "@/lib/catalog/agents";
import { notDeleted, workspacesAsW } from "../deleted";
import { rootLatest } from "../schema";
import { rowsOf, type Db } from "../types";
import { carriedLevels } from "./carried-levels";
import { clampToRollups, getHorizons } from "./retention";

// One module's folder, ~/.coder-modules/<namespace>/<module>/ (roots of kind "module" keyed "<namespace>/<module>"),
// across the fleet: what it holds now (root_latest) and its level day by day (the daily roll-ups).

export type ModuleDetail = {
  /** The root key, "<namespace>/<module>". */
  module: string;
  /** The agent the reporter's catalog gives the module's folder ("other" when none). */
  agent: string;
  range: DayRange;
  total: { bytes: number; workspaces: number };
  /** The module's bytes summed over the live workspaces that held it, at the end of each day of the range. */
  series: { day: Day; bytes: number }[];
  /** Every live workspace holding the module now, largest first. */
  workspaces: (WorkspaceRef & { bytes: number; path: string; collectedAt: string })[];
};

/** Live workspaces that have held the module (alias w): one index probe of root_daily per workspace. */
export const moduleWorkspaces = (key: string): SQL =>
  sql`select w.id from workspaces w where ${notDeleted} and exists (select 1 from root_daily d
    where d.workspace_id = w.id and d.root_key = ${key} and d.kind = 'module')`;

/** A module's page exists while a live workspace holds it now or has held it within the roll-ups. */
export async function moduleExists(db: Db, key: string): Promise<boolean> {
  // Two exists probes in one statement of no table (the query builder needs one): SQL through db.execute.
  const [row] = rowsOf<{ found: boolean }>(
    await db.execute(sql`select exists (select 1 from root_latest l join workspaces w on w.id = l.workspace_id
      where l.root_key = ${key} and l.kind = 'module' and ${notDeleted}) or exists (${moduleWorkspaces(key)}) as found`),
  );
  return row?.found === true;
}

/** One module across the fleet, or null for a module no live workspace holds or has held (the route's 404). */
export async function getModuleDetail(
  db: Db,
  key: string,
  params: RangeParams & { now?: Date } = {},
): Promise<ModuleDetail | null> {
  if (!(await moduleExists(db, key))) return null;
  const range = clampToRollups(resolveRange(params, params.now ?? new Date()), (await getHorizons(db)).rollups);
  const value = sql`coalesce((select rd.bytes from root_daily rd
    where rd.day = r.day and rd.workspace_id = r.id and rd.root_key = ${key} and rd.kind = 'module'), 0)`;
  const l = rootLatest;
  const w = workspacesAsW;
  const [series, held] = await Promise.all([
    carriedLevels(db, moduleWorkspaces(key), value, range),
    db
      .select({
        id: w.id,
        name: w.name,
        owner: w.owner,
        agent: l.agent,
        path: l.path,
        bytes: sql<number>`${l.bytes}::float8`,
        collectedAt: l.collectedAt,
      })
      .from(l)
      .innerJoin(w, eq(w.id, l.workspaceId))
      .where(and(eq(l.rootKey, key), eq(l.kind, "module"), notDeleted))
      .orderBy(desc(l.bytes), w.id),
  ]);
  const workspaces = held.map((r) => ({
    id: r.id,
    name: r.name,
    owner: r.owner,
    bytes: Number(r.bytes),
    path: r.path,
    collectedAt: r.collectedAt.toISOString(),
  }));
  return {
    module: key,
    agent: held[0]?.agent ?? OTHER_AGENT,
    range,
    total: { bytes: workspaces.reduce((s, w) => s + w.bytes, 0), workspaces: workspaces.length },
    series,
    workspaces,
  };
}
