import "server-only";
import { sql } from "drizzle-orm";
import type { RuleId } from "@/lib/findings/finding";
import type { RuleSet } from "@/lib/findings/rules";
import { KEPT_AGGREGATES_LOCK } from "../advisory-locks";
import { rowsOf, type Db } from "../types";
import { groupedRuleRows, KEPT_RULE_IDS, keptSignature, workspaceFilter } from "./rule-rows";
import { workspaceRanges, type WorkspaceRange } from "./workspace-batches";

// The kept findings (lib/db/schema/findings.ts): the rules over the latest roots, computed when the roots or
// the rules change rather than at each request. Every rewrite computes with the very SQL that a request would
// run (ruleRows), so the kept rows are what the rules say of the latest table; a rule whose stored signature is
// not this code's is read live until its rows are rewritten.

/** The kept rules whose rows are current: computed by this code with these thresholds. */
export async function currentKeptRules(db: Db, rules: RuleSet): Promise<Set<RuleId>> {
  const stored = rowsOf<{ rule_id: RuleId; signature: string }>(
    await db.execute(sql`select rule_id, signature from kept_finding_rules`),
  );
  // (A rule id this code no longer has, or no longer keeps, is not current.)
  return new Set(
    stored
      .filter((r) => KEPT_RULE_IDS.includes(r.rule_id) && r.signature === keptSignature(r.rule_id, rules))
      .map((r) => r.rule_id),
  );
}

/**
 * Rewrites the kept rows of `ids`, of the given workspaces or a range of them, in the caller's transaction. (Two
 * statements: a delete in a WITH of the insert would run after it, and the new rows would meet the old keys.)
 */
async function rewrite(
  tx: Db,
  rules: RuleSet,
  ids: readonly RuleId[],
  workspaces: readonly string[] | WorkspaceRange,
): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(
    sql`delete from kept_findings where rule_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) ${workspaceFilter(sql`workspace_id`, workspaces)}`,
  );
  await tx.execute(sql`insert into kept_findings (rule_id, workspace_id, agent_key, agent, n, total, urgency, members)
    ${groupedRuleRows(ids, rules, workspaces)}`);
}

/**
 * Ingest's part, in the report's transaction: rewrites the kept rows of the workspaces whose latest roots it
 * changed. Waits while a rule's rows are rewritten for the whole fleet.
 */
export async function rewriteKeptWorkspaces(tx: Db, rules: RuleSet, workspaces: readonly string[]): Promise<void> {
  if (workspaces.length === 0) return;
  await rewrite(tx, rules, KEPT_RULE_IDS, workspaces);
}

/** Takes the kept aggregates' lock shared, as every writer of the latest roots must before it writes them. */
export async function lockKeptShared(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${KEPT_AGGREGATES_LOCK})`);
}

/**
 * Rewrites the rows of `ids` (every kept rule by default) for the whole fleet and records their signatures, in
 * the caller's transaction: a change of thresholds commits with its findings. A range of workspaces at a time
 * (workspace-batches.ts), each statement within the statement timeout whatever the fleet's size.
 */
export async function rewriteKeptRules(tx: Db, rules: RuleSet, ids: readonly RuleId[] = KEPT_RULE_IDS): Promise<void> {
  const kept = ids.filter((id) => KEPT_RULE_IDS.includes(id));
  if (kept.length === 0) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${KEPT_AGGREGATES_LOCK})`);
  for (const range of await workspaceRanges(tx)) await rewrite(tx, rules, kept, range);
  await tx.execute(sql`insert into kept_finding_rules (rule_id, signature, refreshed_at)
    values ${sql.join(
      kept.map((id) => sql`(${id}, ${keptSignature(id, rules)}, now())`),
      sql`, `,
    )}
    on conflict (rule_id) do update set signature = excluded.signature, refreshed_at = excluded.refreshed_at`);
}

/**
 * At start: rewrites the rules whose stored signature is not this code's (none stored yet, an upgrade that
 * changed a rule, thresholds saved by another version) for the whole fleet. Returns their ids.
 */
export async function rewriteStaleKeptRules(db: Db, rules: RuleSet): Promise<RuleId[]> {
  const current = await currentKeptRules(db, rules);
  const stale = KEPT_RULE_IDS.filter((id) => !current.has(id));
  if (stale.length > 0) await db.transaction((tx) => rewriteKeptRules(tx, rules, stale));
  return stale;
}
