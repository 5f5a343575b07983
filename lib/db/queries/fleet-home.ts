import "server-only";
import { and, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { FleetHomeSplit } from "@/lib/shaping/home-breakdown";
import { workspaces } from "../schema";
import type { Db } from "../types";

/**
 * What fills the fleet's homes, from each workspace's newest report: agents, modules, package caches, project
 * dependencies and the rest (each home's total as du -sx counts it), over the workspaces whose reporter measures
 * the home; `outside` is their volumes' Used beyond their homes; `roots` what their measured roots hold (their
 * part of the overview's Total storage), so `home - roots` is what the homes hold outside the roots. One pass
 * over the workspaces table.
 */
export type FleetHome = FleetHomeSplit & { workspaces: number; home: number; outside: number; roots: number };

export async function fleetHomeSplit(db: Db): Promise<FleetHome> {
  const home = workspaces.home;
  const total = (value: SQL) => sql<number | string | null>`coalesce(sum(${value}), 0)`;
  const [r] = await db
    .select({
      workspaces: sql<number>`count(*)::int`,
      home: total(sql`(${home}->>'bytes')::float8`),
      agents: total(sql`(${home}->'roots'->>'agents')::float8`),
      modules: total(sql`(${home}->'roots'->>'modules')::float8`),
      caches: total(sql`(${home}->'kinds'->>'package-cache')::float8`),
      projects: total(sql`(${home}->'kinds'->>'project-deps')::float8`),
      outside: total(sql`greatest(0, ${workspaces.volumeUsedBytes} - (${home}->>'bytes')::float8)`),
      roots: total(sql`${workspaces.totalBytes}::float8`),
    })
    .from(workspaces)
    .where(and(isNull(workspaces.deletedAt), isNotNull(home)));
  const n = (k: keyof typeof r) => Number(r[k] ?? 0);
  const split = { agents: n("agents"), modules: n("modules"), caches: n("caches"), projects: n("projects") };
  return {
    workspaces: n("workspaces"),
    home: n("home"),
    ...split,
    other: n("home") - split.agents - split.modules - split.caches - split.projects,
    outside: n("outside"),
    roots: n("roots"),
  };
}
