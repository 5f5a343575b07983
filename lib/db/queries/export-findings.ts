import "server-only";
import { sql } from "drizzle-orm";
import { mergeSorted } from "@/lib/csv/merge";
import type { Finding, RuleId } from "@/lib/findings/finding";
import { compareFindings, FINDING_ORDER, type RankedFinding } from "@/lib/findings/order";
import type { RuleSet } from "@/lib/findings/rules";
import { findingsQuery } from "@/lib/validations/findings";
import { keysetRows, type PageOptions } from "../keyset";
import type { Db } from "../types";
import {
  getRules,
  ruleFindingsFrom,
  selectedRules,
  toRankedFinding,
  type FindingsParams,
  type RuleRow,
} from "./findings";

/** One rule's findings, most urgent first, paged by FINDING_ORDER. */
async function* ruleFindings(
  db: Db,
  id: RuleId,
  rules: RuleSet,
  now: Date,
  workspace: string | undefined,
  opts?: PageOptions,
): AsyncGenerator<RankedFinding> {
  const from = ruleFindingsFrom(id, rules, now, workspace);
  const rows = keysetRows<RuleRow>(
    db,
    FINDING_ORDER,
    (page) => sql`select f.*, w.name, w.owner${page.keyColumns}
    from ${from} where ${page.after} order by ${page.order} limit ${page.limit}`,
    opts,
  );
  for await (const r of rows) yield toRankedFinding(id, rules, r);
}

/**
 * Every finding under the findings page's filters (its limit does not apply), in its order: each rule's
 * findings are read in pages, and the rules merged, so nothing is held but one page per rule.
 */
export async function* findingExportRows(
  db: Db,
  params: FindingsParams = {},
  opts?: PageOptions,
): AsyncGenerator<Finding> {
  const p = findingsQuery.parse(params);
  const now = params.now ?? new Date();
  const rules = await getRules(db);
  const sources = selectedRules(rules, p).map((id) => ruleFindings(db, id, rules, now, p.workspace, opts));
  for await (const r of mergeSorted(sources, compareFindings)) yield r.finding;
}
