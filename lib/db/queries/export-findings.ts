import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { mergeSorted } from "@/lib/csv/merge";
import { compareFindings, type Finding, type RuleId, type RuleSet } from "@/lib/findings/rules";
import { findingsQuery } from "@/lib/validations/findings";
import { keysetRows, type KeyPart, type PageOptions } from "../keyset";
import type { Db } from "../types";
import { getRules, ruleQuery, ruleScope, selectedRules, toFinding, type FindingsParams, type RuleRow } from "./findings";

/**
 * How far past its threshold a finding is, in SQL over a rule's row (alias f): compareFindings' ratio, so that
 * each rule's pages come in the order the findings page sorts in.
 */
function urgency(unit: Finding["unit"]): SQL {
  if (unit === "percent") return sql`f.value`;
  if (unit === "days") return sql`(f.threshold + 1) / (f.value + 1)`;
  return sql`case when f.threshold > 0 then f.value / f.threshold else f.value end`;
}

/** One rule's findings, most urgent first, paged by (urgency, workspace, root, path). */
async function* ruleFindings(db: Db, id: RuleId, rules: RuleSet, now: Date, workspace: string | undefined, opts?: PageOptions) {
  const q = ruleQuery(id, rules, now, ruleScope(id, workspace));
  const keys: KeyPart[] = [
    { expr: urgency(q.unit), type: "float8", dir: "desc" },
    { expr: sql`f.workspace_id`, type: "text" },
    { expr: sql`coalesce(f.root_key, '')`, type: "text" },
    { expr: sql`coalesce(f.path, '')`, type: "text" },
  ];
  const rows = keysetRows<RuleRow>(db, keys, (page) => sql`select f.*, w.name, w.owner${page.keyColumns}
    from (${q.from}) f join workspaces w on w.id = f.workspace_id
    where ${page.after} order by ${page.order} limit ${page.limit}`, opts);
  for await (const r of rows) yield toFinding(id, rules, q.unit, r);
}

/**
 * Every finding under the findings page's filters (its limit does not apply), in its order: each rule's
 * findings are read in pages, and the rules merged, so nothing is held but one page per rule.
 */
export async function* findingExportRows(db: Db, params: FindingsParams = {}, opts?: PageOptions): AsyncGenerator<Finding> {
  const p = findingsQuery.parse(params);
  const now = params.now ?? new Date();
  const rules = await getRules(db);
  const sources = selectedRules(rules, p).map((id) => ruleFindings(db, id, rules, now, p.workspace, opts));
  yield* mergeSorted(sources, compareFindings);
}
