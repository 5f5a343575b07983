import "server-only";
import { eq, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { RECIPES } from "@/lib/catalog/recipes";
import { cleanupJobs, cleanupPolicies, cleanupRuns, workspaces } from "../schema";
import type { Db } from "../types";

// An audit entry's target by name: the log keeps the id it was written with (a workspace id, a policy, run or
// job UUID), and the page and the CSV show what it names today (owner/workspace, the policy's name, the run's
// recipe), with a link to it. A target since deleted keeps the name its entry recorded, or says it is gone.

/** What a target is named as, and where it is shown. */
export type AuditTarget = { label: string; href: string | null };

type Kind = "workspace" | "policy" | "run" | "job";

/** What kind of thing each action's target is (actions whose target is already a name, an email, are absent). */
function kindOf(action: string): Kind | null {
  if (action === "workspace.token_reset" || action === "cleanup.jobs_claimed") return "workspace";
  if (action.startsWith("cleanup.policy_")) return "policy";
  if (action === "cleanup.job_result" || action === "cleanup.job_interrupted") return "job";
  if (
    action === "cleanup.run_created" ||
    action === "cleanup.run_cancelled" ||
    action === "cleanup.restore_queued" ||
    action === "cleanup.trash_purge_queued" ||
    action === "cleanup.truncate_queued" ||
    action === "cleanup.jobs_expired"
  )
    return "run";
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const recipeTitle = (id: string | null) => RECIPES.find((r) => r.id === id)?.title ?? id;

/** Runs that are not a recipe's or a custom rule's, by kind. */
const KIND_LABEL: Record<string, string> = {
  restore: "restore",
  "purge-trash": "trash purge",
  truncate: "truncate a log",
};

/** A run as people tell runs apart: what it cleans (or restores), and when it was made. */
function runLabel(r: { kind: string; recipe: string | null; created: string }): string {
  const what = r.kind === "cleanup" ? (recipeTitle(r.recipe) ?? "custom rule") : (KIND_LABEL[r.kind] ?? r.kind);
  return `run: ${what}, ${r.created.slice(0, 16).replace("T", " ")} UTC`;
}

type Entry = { id: number; action: string; target: string | null; details: Record<string, unknown> | null };

/** Each entry's target by name (keyed by entry id); entries whose target is a name already are left out. */
export async function auditTargets(db: Db, entries: readonly Entry[]): Promise<Map<number, AuditTarget>> {
  const ids: Record<Kind, Set<string>> = { workspace: new Set(), policy: new Set(), run: new Set(), job: new Set() };
  for (const e of entries) {
    const kind = kindOf(e.action);
    if (kind && e.target && (kind === "workspace" || UUID.test(e.target))) ids[kind].add(e.target);
  }
  // One array parameter a kind (`= any`), however many entries the page holds.
  const among = (column: AnyPgColumn, k: Kind, type: "text" | "uuid") =>
    sql`${column} = any(${sql.param([...ids[k]])}::${sql.raw(type)}[])`;
  const created = sql<string>`to_char(${cleanupRuns.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI')`;
  const [named, policies, runs, jobs] = await Promise.all([
    ids.workspace.size
      ? db
          .select({ id: workspaces.id, owner: workspaces.owner, name: workspaces.name })
          .from(workspaces)
          .where(among(workspaces.id, "workspace", "text"))
      : [],
    ids.policy.size
      ? db
          .select({ id: cleanupPolicies.id, name: cleanupPolicies.name })
          .from(cleanupPolicies)
          .where(among(cleanupPolicies.id, "policy", "uuid"))
      : [],
    ids.run.size
      ? db
          .select({ id: cleanupRuns.id, kind: cleanupRuns.kind, recipe: cleanupRuns.recipe, created })
          .from(cleanupRuns)
          .where(among(cleanupRuns.id, "run", "uuid"))
      : [],
    ids.job.size
      ? db
          .select({
            id: cleanupJobs.id,
            runId: cleanupJobs.runId,
            owner: workspaces.owner,
            name: workspaces.name,
            kind: cleanupRuns.kind,
            recipe: cleanupRuns.recipe,
            created,
          })
          .from(cleanupJobs)
          .innerJoin(cleanupRuns, eq(cleanupRuns.id, cleanupJobs.runId))
          .innerJoin(workspaces, eq(workspaces.id, cleanupJobs.workspaceId))
          .where(among(cleanupJobs.id, "job", "uuid"))
      : [],
  ]);
  const found = new Map<string, AuditTarget>();
  for (const w of named)
    found.set(`workspace:${w.id}`, { label: `${w.owner}/${w.name}`, href: `/workspaces/${encodeURIComponent(w.id)}` });
  for (const p of policies)
    found.set(`policy:${p.id}`, { label: `policy “${p.name}”`, href: `/cleanup/policies/${p.id}` });
  for (const r of runs) found.set(`run:${r.id}`, { label: runLabel(r), href: `/cleanup/runs/${r.id}` });
  for (const j of jobs)
    found.set(`job:${j.id}`, {
      label: `${j.owner}/${j.name}'s job in ${runLabel(j)}`,
      href: `/cleanup/runs/${j.runId}`,
    });

  const out = new Map<number, AuditTarget>();
  for (const e of entries) {
    const kind = kindOf(e.action);
    if (!kind || !e.target) continue;
    const named = found.get(`${kind}:${e.target}`);
    if (named) out.set(e.id, named);
    else if (kind === "policy" && typeof e.details?.name === "string")
      out.set(e.id, { label: `policy “${e.details.name}” (deleted)`, href: null });
    else out.set(e.id, { label: `a ${kind} since deleted`, href: null });
  }
  return out;
}
