import { createHash } from "node:crypto";
import type { Db } from "@/lib/db";
import {
  addFleetDeltas,
  insertReportRow,
  latestLevels,
  lockWorkspace,
  neighbours,
  recentVolumeUse,
  removeRoots,
  reportOwner,
  storeRoots,
  touchWorkspace,
  updateWorkspaceSummary,
  upsertWorkspaceDay,
  type FleetDelta,
  type RootLevel,
} from "@/lib/db/queries/ingest";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { forecastFull, slopePerDay } from "@/lib/forecast";
import type { Report } from "@/lib/report/schema";

export type IngestResult = {
  reportId: string;
  workspaceId: string;
  /** "duplicate": this id was stored before; nothing changed. */
  status: "stored" | "duplicate";
  /** False when a newer report of the workspace was already stored (the report still enters history). */
  newest: boolean;
  roots: number;
};

export const FLEET_SHARDS = 8;
const FORECAST_DAYS = 14;

export const utcDay = (iso: string) => new Date(iso).toISOString().slice(0, 10);

function shardOf(workspaceId: string): number {
  return createHash("sha1").update(workspaceId).digest()[0] % FLEET_SHARDS;
}

/**
 * The fleet roll-up's changes when a workspace's roots go from `before` to `after` on `day`; when the report
 * lands between two stored ones, the report after it (on `nextDay`) now changes from this one instead.
 */
export function fleetDeltas(
  before: RootLevel[],
  after: RootLevel[],
  day: string,
  nextDay: string | null,
  shard: number,
): FleetDelta[] {
  const acc = new Map<string, FleetDelta>();
  const add = (d: string, x: RootLevel, sign: 1 | -1) => {
    const id = `${d}\0${x.agent}\0${x.kind}`;
    const cur = acc.get(id) ?? { day: d, agent: x.agent, kind: x.kind, shard, bytes: 0, roots: 0 };
    cur.bytes += sign * x.bytes;
    cur.roots += sign;
    acc.set(id, cur);
  };
  for (const x of after) add(day, x, 1);
  for (const x of before) add(day, x, -1);
  if (nextDay && nextDay !== day) {
    for (const x of after) add(nextDay, x, -1);
    for (const x of before) add(nextDay, x, 1);
  }
  return [...acc.values()].filter((d) => d.bytes !== 0 || d.roots !== 0);
}

function largestAgent(roots: Report["roots"]): { agent: string | null; bytes: number | null } {
  const byAgent = new Map<string, number>();
  for (const r of roots) byAgent.set(r.agent, (byAgent.get(r.agent) ?? 0) + r.bytes);
  let best: [string, number] | null = null;
  for (const e of byAgent) if (!best || e[1] > best[1]) best = e;
  return { agent: best?.[0] ?? null, bytes: best?.[1] ?? null };
}

/**
 * Stores one report in one transaction: history, latest, daily and fleet roll-ups, and the workspace's
 * summary. The report's id makes it idempotent: a second delivery changes nothing and says "duplicate".
 */
export async function ingestReport(
  db: Db,
  authenticatedWorkspaceId: string,
  r: Report,
  receivedAt = new Date(),
): Promise<IngestResult> {
  if (r.workspace.id !== authenticatedWorkspaceId) {
    throw new ForbiddenError(`This token belongs to workspace ${authenticatedWorkspaceId}, not ${r.workspace.id}.`);
  }
  const ws = r.workspace.id;
  const totalBytes = r.roots.reduce((s, x) => s + x.bytes, 0);
  const day = utcDay(r.collectedAt);

  return db.transaction(async (tx) => {
    const base = { reportId: r.id, workspaceId: ws, roots: r.roots.length };
    if (!(await insertReportRow(tx, r, receivedAt, totalBytes))) {
      const owner = await reportOwner(tx, r.id);
      if (owner !== ws) throw new ConflictError(`Report id ${r.id} was already used by another workspace.`);
      await touchWorkspace(tx, ws, receivedAt);
      return { ...base, status: "duplicate", newest: false };
    }
    const locked = await lockWorkspace(tx, ws);
    if (!locked) throw new NotFoundError(`Workspace ${ws} is not enrolled.`);
    const collectedAt = new Date(r.collectedAt);
    const newest = !locked.lastCollectedAt || collectedAt >= locked.lastCollectedAt;

    const { previous, nextDay } = newest
      ? { previous: await latestLevels(tx, ws), nextDay: null }
      : await neighbours(tx, ws, r.collectedAt);
    const current: RootLevel[] = r.roots.map((x) => ({ key: x.key, agent: x.agent, kind: x.kind, bytes: x.bytes }));
    const keys = new Set(current.map((x) => x.key));
    const removed = previous.filter((x) => !keys.has(x.key));

    await storeRoots(tx, r, day, newest);
    await removeRoots(tx, ws, removed, day, r.collectedAt, newest);
    await addFleetDeltas(tx, fleetDeltas(previous, current, day, nextDay, shardOf(ws)));
    await upsertWorkspaceDay(tx, r, day, totalBytes);

    if (!newest) {
      await touchWorkspace(tx, ws, receivedAt);
      return { ...base, status: "stored", newest };
    }
    const used = await recentVolumeUse(tx, ws, FORECAST_DAYS);
    const largest = largestAgent(r.roots);
    await updateWorkspaceSummary(
      tx,
      ws,
      {
        name: r.workspace.name,
        owner: r.workspace.owner,
        template: r.workspace.template ?? null,
        agentName: r.workspace.agent ?? null,
        reportId: r.id,
        collectedAt,
        volumeTotalBytes: r.volume?.totalBytes ?? null,
        volumeFreeBytes: r.volume?.freeBytes ?? null,
        totalBytes,
        rootCount: r.roots.length,
        largestAgent: largest.agent,
        largestAgentBytes: largest.bytes,
        growthBytesPerDay: slopePerDay(used),
        forecastFullAt: r.volume ? forecastFull(used, r.volume.freeBytes, collectedAt.getTime()) : null,
      },
      receivedAt,
    );
    return { ...base, status: "stored", newest };
  });
}
