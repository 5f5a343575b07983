import "server-only";
import { sql } from "drizzle-orm";
import { RECIPES } from "@/lib/catalog/recipes";
import { rowsOf, type Db } from "../types";

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
  const list = (k: Kind) => sql.param([...ids[k]]);
  const [workspaces, policies, runs, jobs] = await Promise.all([
    ids.workspace.size
      ? db.execute(sql`select id, owner, name from workspaces where id = any(${list("workspace")}::text[])`)
      : null,
    ids.policy.size
      ? db.execute(sql`select id::text, name from cleanup_policies where id = any(${list("policy")}::uuid[])`)
      : null,
    ids.run.size
      ? db.execute(sql`select id::text, kind, recipe, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as created
          from cleanup_runs where id = any(${list("run")}::uuid[])`)
      : null,
    ids.job.size
      ? db.execute(sql`select j.id::text, j.run_id::text as run_id, w.owner, w.name, r.kind, r.recipe,
            to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as created
          from cleanup_jobs j join cleanup_runs r on r.id = j.run_id join workspaces w on w.id = j.workspace_id
          where j.id = any(${list("job")}::uuid[])`)
      : null,
  ]);
  const found = new Map<string, AuditTarget>();
  for (const w of rowsOf<{ id: string; owner: string; name: string }>(workspaces ?? { rows: [] }))
    found.set(`workspace:${w.id}`, { label: `${w.owner}/${w.name}`, href: `/workspaces/${encodeURIComponent(w.id)}` });
  for (const p of rowsOf<{ id: string; name: string }>(policies ?? { rows: [] }))
    found.set(`policy:${p.id}`, { label: `policy “${p.name}”`, href: `/cleanup/policies/${p.id}` });
  for (const r of rowsOf<{ id: string; kind: string; recipe: string | null; created: string }>(runs ?? { rows: [] }))
    found.set(`run:${r.id}`, { label: runLabel(r), href: `/cleanup/runs/${r.id}` });
  type JobRow = {
    id: string;
    run_id: string;
    owner: string;
    name: string;
    kind: string;
    recipe: string | null;
    created: string;
  };
  for (const j of rowsOf<JobRow>(jobs ?? { rows: [] }))
    found.set(`job:${j.id}`, {
      label: `${j.owner}/${j.name}'s job in ${runLabel(j)}`,
      href: `/cleanup/runs/${j.run_id}`,
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
