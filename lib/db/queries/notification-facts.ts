import "server-only";
import { sql } from "drizzle-orm";
import { RECIPES } from "@/lib/catalog/recipes";
import type { WorkspaceFacts } from "@/lib/notify/decide";
import type { Cause } from "@/lib/notify/types";
import { rowsOf, type Db } from "../types";
import { grownFiles } from "./notification-growth";

// The facts lib/notify/decide.ts decides from, for some workspaces: the volume's figures and forecast, the
// newest report's persistence facts, its largest roots and the recipe whose units hold the most bytes.

/** How many of the largest roots a notice names. */
const CAUSES = 3;

type Row = {
  id: string;
  name: string;
  owner: string;
  used_pct: number | null;
  forecast_full_at: string | Date | null;
  writes_failed_no_space_at: string | Date | null;
  lost: string[] | string | null;
  causes: Cause[] | string | null;
  best_recipe: string | null;
  best_recipe_bytes: string | null;
};

const parsed = <T>(v: T | string | null): T | null => (typeof v === "string" ? (JSON.parse(v) as T) : v);
const titles = new Map<string, string>(RECIPES.map((r) => [r.id, r.title]));

/** The facts of the workspaces among `ids` that are not deleted; files that grew by more than `minGrowth`. */
export async function workspaceFacts(db: Db, ids: string[], minGrowth: number): Promise<WorkspaceFacts[]> {
  if (ids.length === 0) return [];
  const grown = await grownFiles(db, ids, minGrowth);
  const placed = sql`(w.persistence -> 'roots' -> r.root_key)`;
  // Lateral aggregates over jsonb per workspace: SQL through db.execute.
  const rows = rowsOf<Row>(
    await db.execute(sql`select w.id, w.name, w.owner, w.volume_used_pct as used_pct, w.forecast_full_at,
        w.writes_failed_no_space_at,
        lost.list as lost, causes.list as causes, best.recipe as best_recipe, best.bytes::text as best_recipe_bytes
      from workspaces w
      left join lateral (
        select jsonb_agg(r.path order by r.path) as list from root_latest r
        where r.workspace_id = w.id and r.kind in ('tool', 'module', 'legacy', 'custom') and r.bytes > 0
          and (w.persistence -> 'home' ->> 'verdict' = 'not-persistent' or ${placed} ->> 'verdict' = 'not-persistent')
      ) lost on true
      left join lateral (
        select jsonb_agg(jsonb_build_object('agent', t.agent, 'path', t.path, 'bytes', t.bytes) order by t.bytes desc)
          as list
        from (select r.agent, r.path, r.bytes from root_latest r where r.workspace_id = w.id
          order by r.bytes desc, r.root_key limit ${CAUSES}) t
      ) causes on true
      left join lateral (
        select u.key as recipe, sum((u.value ->> 'bytes')::bigint - coalesce((u.value ->> 'protectedBytes')::bigint, 0))
          as bytes
        from root_latest r, jsonb_each(r.recipes) u where r.workspace_id = w.id
        group by u.key order by 2 desc, 1 limit 1
      ) best on true
      where w.id in (select unnest(${sql.param(ids)}::text[])) and w.deleted_at is null`),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    owner: r.owner,
    usedPct: r.used_pct,
    forecastFullAt: r.forecast_full_at == null ? null : new Date(r.forecast_full_at),
    writesFailedNoSpace: r.writes_failed_no_space_at != null,
    lostAtRestart: parsed(r.lost) ?? [],
    causes: (parsed(r.causes) ?? []).map((c) => ({ ...c, bytes: Number(c.bytes) })),
    grownFiles: grown.get(r.id) ?? [],
    bestRecipe:
      r.best_recipe && Number(r.best_recipe_bytes) > 0
        ? {
            recipeId: r.best_recipe,
            title: titles.get(r.best_recipe) ?? r.best_recipe,
            bytes: Number(r.best_recipe_bytes),
          }
        : null,
  }));
}
