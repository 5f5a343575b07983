import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { findingRules } from "../schema";
import { keysetOrder } from "../keyset";
import { rowsOf, type Db } from "../types";
import { recordAudit, type Who } from "./audit";
import { RULE_IDS, type Finding, type RuleId, type Severity } from "@/lib/findings/finding";
import { compareFindings, FINDING_ORDER, type RankedFinding } from "@/lib/findings/order";
import {
  describeFinding,
  mergeRules,
  RULES,
  type IgnoredOverride,
  type Rule,
  type RulesUpdateRequest,
  type RuleSet,
} from "@/lib/findings/rules";
import { findingsQuery } from "@/lib/validations/findings";

export type { Finding, IgnoredOverride, Rule, RuleId, RuleSet, Severity };

/** `rules`: the rules in effect when the caller has read them already (one read per page load). */
export type FindingsParams = z.input<typeof findingsQuery> & { now?: Date; rules?: RuleSet };

export type FindingsList = {
  /** Most urgent first, at most `limit`. */
  findings: Finding[];
  /** All matching findings, beyond `limit` too. */
  total: number;
  truncated: boolean;
};

export type FindingsSummary = {
  total: number;
  bySeverity: Record<Severity, number>;
  byRule: { ruleId: RuleId; severity: Severity; count: number }[];
  /** The most urgent few. */
  top: Finding[];
};

/** The rules in effect, and the stored thresholds that no longer validate (the rules page shows them). */
export type RulesResponse = { rules: Rule[]; ignored: IgnoredOverride[] };

// Each stale value is logged once per process, not at every page that reads the rules.
const loggedIgnored = new Set<string>();

async function readRules(db: Db): Promise<{ rules: RuleSet; ignored: IgnoredOverride[] }> {
  const rows = await db
    .select({
      id: findingRules.id,
      enabled: findingRules.enabled,
      severity: findingRules.severity,
      params: findingRules.params,
    })
    .from(findingRules);
  const merged = mergeRules(rows);
  for (const i of merged.ignored) {
    const key = `${i.id} ${JSON.stringify(i.params)}`;
    if (loggedIgnored.has(key)) continue;
    loggedIgnored.add(key);
    console.warn(
      `[findings] the stored thresholds of rule ${i.id} no longer validate (${i.problem}); its defaults apply until an admin saves it`,
    );
  }
  return merged;
}

export async function getRules(db: Db): Promise<RuleSet> {
  return (await readRules(db)).rules;
}

/** What the rules page shows: every rule in effect, in the catalog's order, and the ignored stored thresholds. */
export async function getRulesView(db: Db): Promise<RulesResponse> {
  const { rules, ignored } = await readRules(db);
  return { rules: RULE_IDS.map((id) => rules[id] as Rule), ignored };
}

/** Applies an admin's changes (validated by `rulesUpdateRequest`) and returns the rules page's view of them. */
export async function updateRules(db: Db, req: RulesUpdateRequest, who: Who): Promise<RulesResponse> {
  await db.transaction(async (tx) => {
    for (const u of req.rules) {
      const set: Partial<typeof findingRules.$inferInsert> = { updatedAt: new Date() };
      if (u.enabled !== undefined) set.enabled = u.enabled;
      if (u.severity !== undefined) set.severity = u.severity;
      if (u.params !== undefined) set.params = u.params;
      await tx
        .insert(findingRules)
        .values({ id: u.id, enabled: u.enabled ?? null, severity: u.severity ?? null, params: u.params ?? null })
        .onConflictDoUpdate({ target: findingRules.id, set });
    }
    await recordAudit(tx, {
      ...who,
      action: "rules.updated",
      target: req.rules.map((r) => r.id).join(","),
      details: { changes: req.rules },
    });
  });
  return getRulesView(db);
}

/** One finding row of a rule, as ruleFindingsFrom returns it. */
export type RuleRow = {
  workspace_id: string;
  name: string;
  owner: string;
  root_key: string | null;
  agent: string | null;
  path: string | null;
  value: number;
  threshold: number;
  urgency: number;
};

/**
 * The FROM clause of one rule's findings in effect: its rows with their urgency (alias f) joined to their
 * workspace (alias w), limited to one workspace when `workspace` is set. Read in FINDING_ORDER.
 */
export function ruleFindingsFrom(id: RuleId, rules: RuleSet, now: Date, workspace: string | undefined): SQL {
  const rule = RULES[id];
  const wsColumn = rule.scope === "workspace" ? sql`w.id` : sql`r.workspace_id`;
  const full = rules["volume-full"];
  const ctx = {
    fullAtPercent: full.enabled ? full.params.usedPercent : null,
    now: sql`${now.toISOString()}::timestamptz`,
    ws: workspace ? sql`and ${wsColumn} = ${workspace}` : sql``,
  };
  const rows = (rule.rows as (params: unknown, c: typeof ctx) => SQL)(rules[id].params, ctx);
  return sql`(select x.*, (${rule.urgency})::float8 as urgency from (${rows}) x) f join workspaces w on w.id = f.workspace_id`;
}

/** The enabled rules a filter keeps (one rule, one severity, or all). */
export function selectedRules(rules: RuleSet, opts: { rule?: RuleId; severity?: Severity }): RuleId[] {
  return RULE_IDS.filter((id) => {
    const rule = rules[id] as Rule;
    return rule.enabled && (!opts.rule || opts.rule === id) && (!opts.severity || opts.severity === rule.severity);
  });
}

/** A rule's row as a finding with its wording, and its urgency to sort by. */
export function toRankedFinding(id: RuleId, rules: RuleSet, r: RuleRow): RankedFinding {
  const finding = describeFinding({
    ruleId: id,
    severity: (rules[id] as Rule).severity,
    workspace: { id: r.workspace_id, name: r.name, owner: r.owner },
    rootKey: r.root_key,
    agent: r.agent,
    path: r.path,
    value: Number(r.value),
    threshold: Number(r.threshold),
    unit: RULES[id].unit,
  });
  return { finding, urgency: Number(r.urgency) };
}

type RunResult = { findings: Finding[]; counts: { ruleId: RuleId; severity: Severity; count: number }[] };

/**
 * Runs the enabled rules (optionally one rule, one severity, one workspace): each rule's first `limit`
 * findings and its full count; the findings most urgent first, at most `limit`.
 */
async function runRules(
  db: Db,
  opts: { rules: RuleSet; now: Date; workspace?: string; rule?: RuleId; severity?: Severity; limit: number },
): Promise<RunResult> {
  const ranked: RankedFinding[] = [];
  const counts: RunResult["counts"] = [];
  for (const id of selectedRules(opts.rules, opts)) {
    const rows = rowsOf<RuleRow & { total: number | string }>(
      await db.execute(sql`select f.*, w.name, w.owner, count(*) over () as total
        from ${ruleFindingsFrom(id, opts.rules, opts.now, opts.workspace)}
        order by ${keysetOrder(FINDING_ORDER)} limit ${opts.limit}`),
    );
    counts.push({ ruleId: id, severity: opts.rules[id].severity, count: rows.length ? Number(rows[0].total) : 0 });
    for (const r of rows) ranked.push(toRankedFinding(id, opts.rules, r));
  }
  ranked.sort(compareFindings);
  return { findings: ranked.slice(0, opts.limit).map((r) => r.finding), counts };
}

/** Findings from the newest data (root_latest and workspaces; never history), most urgent first. */
export async function listFindings(db: Db, params: FindingsParams = {}): Promise<FindingsList> {
  const p = findingsQuery.parse(params);
  const rules = params.rules ?? (await getRules(db));
  const { findings, counts } = await runRules(db, { ...p, rules, now: params.now ?? new Date() });
  const total = counts.reduce((s, c) => s + c.count, 0);
  return { findings, total, truncated: total > p.limit };
}

/** Counts by rule and severity over the whole fleet, and the most urgent few. */
export async function getFindingsSummary(
  db: Db,
  params: { now?: Date; top?: number; rules?: RuleSet } = {},
): Promise<FindingsSummary> {
  const top = params.top ?? 5;
  const rules = params.rules ?? (await getRules(db));
  const { findings, counts } = await runRules(db, { rules, now: params.now ?? new Date(), limit: top });
  const bySeverity: Record<Severity, number> = { critical: 0, warning: 0, info: 0 };
  for (const c of counts) bySeverity[c.severity] += c.count;
  return {
    total: counts.reduce((s, c) => s + c.count, 0),
    bySeverity,
    byRule: counts.filter((c) => c.count > 0),
    top: findings,
  };
}
