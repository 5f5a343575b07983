import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { createHash } from "node:crypto";
import { RULE_IDS, type RuleId } from "@/lib/findings/finding";
import { RULES, type RuleSet } from "@/lib/findings/rules";

/** The rules whose findings are kept (lib/db/schema/findings.ts): those over the latest roots. */
export const KEPT_RULE_IDS: readonly RuleId[] = RULE_IDS.filter((id) => RULES[id].scope === "root");

export const isKept = (id: RuleId) => KEPT_RULE_IDS.includes(id);

/** `and <column> = …` for one workspace, `and <column> in (…)` for several, nothing for the whole fleet. */
export function workspaceFilter(column: SQL, workspaces: string | readonly string[] | undefined): SQL {
  if (workspaces === undefined) return sql``;
  if (typeof workspaces === "string") return sql`and ${column} = ${workspaces}`;
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
export function ruleRows(
  id: RuleId,
  rules: RuleSet,
  now: Date | SQL,
  workspaces: string | readonly string[] | undefined,
): SQL {
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
