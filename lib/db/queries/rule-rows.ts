import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { createHash } from "node:crypto";
import { GROUP_MEMBERS_SHOWN, RULE_IDS, type RuleId } from "@/lib/findings/finding";
import { RULES, type RuleSet } from "@/lib/findings/rules";
import type { WorkspaceRange } from "./workspace-batches";

/** The rules whose findings are kept (lib/db/schema/findings.ts): those over the latest roots. */
export const KEPT_RULE_IDS: readonly RuleId[] = RULE_IDS.filter((id) => RULES[id].scope === "root");

export const isKept = (id: RuleId) => KEPT_RULE_IDS.includes(id);

/** One workspace, several, a range of ids, or (undefined) the whole fleet. */
export type Workspaces = string | readonly string[] | WorkspaceRange | undefined;

/**
 * `and <column> = …` for one workspace, `and <column> in (…)` for several, `and <column> >= … and <column> < …`
 * for a range, nothing for the whole fleet.
 */
export function workspaceFilter(column: SQL, workspaces: Workspaces): SQL {
  if (workspaces === undefined) return sql``;
  if (typeof workspaces === "string") return sql`and ${column} = ${workspaces}`;
  if ("from" in workspaces) {
    const { from, to } = workspaces;
    return sql`${from === null ? sql`` : sql`and ${column} >= ${from}`} ${to === null ? sql`` : sql`and ${column} < ${to}`}`;
  }
  if (workspaces.length === 0) return sql`and false`;
  return sql`and ${column} in (${sql.join(
    workspaces.map((w) => sql`${w}`),
    sql`, `,
  )})`;
}

/**
 * One rule's findings computed from the latest tables: columns workspace_id, root_key, agent, path, value,
 * threshold and urgency (float8), of the given workspaces or the whole fleet.
 */
export function ruleRows(id: RuleId, rules: RuleSet, now: Date | SQL, workspaces: Workspaces): SQL {
  const rule = RULES[id];
  const full = rules["volume-full"];
  const ctx = {
    fullAtPercent: full.enabled ? full.params.usedPercent : null,
    now: now instanceof Date ? sql`${now.toISOString()}::timestamptz` : now,
    ws: workspaceFilter(rule.scope === "workspace" ? sql`w.id` : sql`r.workspace_id`, workspaces),
  };
  const rows = (rule.rows as (params: unknown, c: typeof ctx) => SQL)(rules[id].params, ctx);
  return sql`select x.workspace_id, x.root_key, x.agent, x.path, x.value::float8 as value,
      x.threshold::float8 as threshold, (${rule.urgency})::float8 as urgency from (${rows}) x`;
}

/**
 * A group's members (alias f: findings with root_key, path, value, threshold, urgency), the most urgent
 * GROUP_MEMBERS_SHOWN as a JSON array of { rootKey, path, value, threshold }; an aggregate.
 */
export const MEMBERS = sql`to_jsonb((array_agg(jsonb_build_object('rootKey', f.root_key, 'path', f.path,
    'value', f.value, 'threshold', f.threshold) order by f.urgency desc, coalesce(f.root_key, '') collate "C",
    coalesce(f.path, '') collate "C"))[1:${sql.raw(String(GROUP_MEMBERS_SHOWN))}])`;

/**
 * The findings of `ids` grouped as the lists group them: one row per rule, workspace and agent (agent_key, ''
 * for none) with their count, total, highest urgency and members. Columns in kept_findings' order.
 */
export function groupedRuleRows(
  ids: readonly RuleId[],
  rules: RuleSet,
  workspaces?: readonly string[] | WorkspaceRange,
): SQL {
  const rows = sql.join(
    ids.map((id) => sql`select ${id}::text as rule_id, k.* from (${ruleRows(id, rules, sql`now()`, workspaces)}) k`),
    sql` union all `,
  );
  return sql`select f.rule_id, f.workspace_id, coalesce(f.agent, '') as agent_key, min(f.agent) as agent,
      count(*)::int4 as n, sum(f.value)::float8 as total, max(f.urgency)::float8 as urgency, ${MEMBERS} as members
    from (${rows}) f group by f.rule_id, f.workspace_id, coalesce(f.agent, '')`;
}

const dialect = new PgDialect();
const signatures = new Map<string, string>();

/**
 * What a kept rule's rows are computed with: a hash of its SQL as this code writes it, with its thresholds. Rows
 * computed by another version of the rule, or with other thresholds, have another signature.
 */
export function keptSignature(id: RuleId, rules: RuleSet): string {
  const key = `${id} ${JSON.stringify(rules[id].params)}`;
  let signature = signatures.get(key);
  if (!signature) {
    const q = dialect.sqlToQuery(ruleRows(id, rules, sql`now()`, undefined));
    signature = createHash("sha256")
      .update(JSON.stringify([q.sql, q.params]))
      .digest("hex");
    signatures.set(key, signature);
  }
  return signature;
}
