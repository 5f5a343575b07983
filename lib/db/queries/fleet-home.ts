import "server-only";
import { sql } from "drizzle-orm";
import type { FleetHomeSplit } from "@/lib/shaping/home-breakdown";
import { rowsOf, type Db } from "../types";

/**
 * What fills the fleet's homes, from each workspace's newest report: agents, modules, package caches, project
 * dependencies and the rest (each home's total as du -sx counts it), over the workspaces whose reporter measures
 * the home; `outside` is their volumes' Used beyond their homes. One pass over the workspaces table.
 */
export type FleetHome = FleetHomeSplit & { workspaces: number; home: number; outside: number };

export async function fleetHomeSplit(db: Db): Promise<FleetHome> {
  const [r] = rowsOf<Record<keyof FleetHome, number | string | null>>(
    await db.execute(sql`select count(*)::int as workspaces,
      coalesce(sum((home->>'bytes')::float8), 0) as home,
      coalesce(sum((home->'roots'->>'agents')::float8), 0) as agents,
      coalesce(sum((home->'roots'->>'modules')::float8), 0) as modules,
      coalesce(sum((home->'kinds'->>'package-cache')::float8), 0) as caches,
      coalesce(sum((home->'kinds'->>'project-deps')::float8), 0) as projects,
      coalesce(sum(greatest(0, volume_used_bytes - (home->>'bytes')::float8)), 0) as outside
      from workspaces where deleted_at is null and home is not null`),
  );
  const n = (k: keyof FleetHome) => Number(r[k] ?? 0);
  const split = { agents: n("agents"), modules: n("modules"), caches: n("caches"), projects: n("projects") };
  return {
    workspaces: n("workspaces"),
    home: n("home"),
    ...split,
    other: n("home") - split.agents - split.modules - split.caches - split.projects,
    outside: n("outside"),
  };
}
