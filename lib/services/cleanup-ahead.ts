import "server-only";
import { RECIPES } from "@/lib/catalog/recipes";
import { nextRunAt } from "@/lib/cleanup/schedule";
import { config, type NotifyConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { latestRootsByKey, workspacesTold } from "@/lib/db/queries/cleanup-ahead";
import { scheduledPolicies } from "@/lib/db/queries/cleanup-policies";
import { previewRun, type WorkspacePreview } from "@/lib/db/queries/cleanup-preview";
import { lockDecisions } from "@/lib/db/queries/notifications";
import { cleanupAheadNotice, type PlannedCleanup, type WorkspaceRef } from "@/lib/notify/decide-cleanup";
import { recordDecisions } from "./notifications";
import { mayAct, POLICY_PREVIEW, policyRequest } from "./policy-view";

// The cleanup ahead notice, decided by the hourly maintenance (instrumentation.ts, scripts/maintenance.ts): every
// enabled policy whose next run will delete (it acts, and is not a dry run) is previewed as its run would be, and
// each workspace it takes something from is told, once per run, ahead of it.

type Planned = { ws: WorkspaceRef; plans: PlannedCleanup[] };

const titles = new Map<string, string>(RECIPES.map((r) => [r.id, r.title]));

/** What each policy's next run takes from each workspace. */
async function plannedCleanups(db: Db, now: Date): Promise<Map<string, Planned>> {
  const out = new Map<string, Planned>();
  const taking: { policyId: string; policy: string; what: string; at: Date; w: WorkspacePreview }[] = [];
  for (const p of await scheduledPolicies(db)) {
    const at = nextRunAt(p);
    if (!at || p.dryRun || !mayAct(p)) continue;
    const preview = await previewRun(db, policyRequest(p), { ...POLICY_PREVIEW, listAll: true, now });
    const what = p.recipe ? (titles.get(p.recipe) ?? p.recipe) : `files matching ${p.custom?.glob ?? "its rule"}`;
    for (const w of preview.workspaces) if (w.bytes > 0) taking.push({ policyId: p.id, policy: p.name, what, at, w });
  }
  const roots = await latestRootsByKey(
    db,
    [...new Set(taking.map((t) => t.w.workspaceId))],
    [...new Set(taking.flatMap((t) => t.w.roots))],
  );
  for (const { w, ...t } of taking) {
    const planned = out.get(w.workspaceId) ?? { ws: { id: w.workspaceId, name: w.name, owner: w.owner }, plans: [] };
    const known = roots.get(w.workspaceId);
    const causes = w.roots.flatMap((k) => known?.get(k) ?? []).sort((a, b) => b.bytes - a.bytes);
    planned.plans.push({ ...t, bytes: w.bytes, roots: causes });
    out.set(w.workspaceId, planned);
  }
  return out;
}

/**
 * Decides the cleanup ahead notices of the whole fleet and queues them, in one transaction; a state whose
 * workspace no policy's next run takes from any more is cleared. Returns how many messages were queued.
 */
export async function decideCleanupAhead(
  db: Db,
  now = new Date(),
  notify: NotifyConfig = config().notify,
): Promise<number> {
  // Previewed before the decisions' lock is taken: the kept refresh's decisions do not wait for the previews.
  const planned = await plannedCleanups(db, now);
  return db.transaction(async (tx) => {
    await lockDecisions(tx);
    const holding = [...planned.values()].map(({ ws, plans }) => {
      const notice = cleanupAheadNotice(ws, plans, now);
      return { workspaceId: ws.id, notices: notice ? [notice] : [] };
    });
    for (const id of await workspacesTold(tx, "cleanup-ahead"))
      if (!planned.has(id)) holding.push({ workspaceId: id, notices: [] });
    return recordDecisions(tx, holding, ["cleanup-ahead"], now, notify);
  });
}
