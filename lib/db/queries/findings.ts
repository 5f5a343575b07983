import "server-only";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { findingRules } from "../schema";
import { keysetAfter, keysetColumns, keysetOrder, keysetRows, type PageOptions, type PageParts } from "../keyset";
import { rowsOf, type Db } from "../types";
import {
  RULE_IDS,
  type Finding,
  type FindingGroup,
  type FindingMember,
  type RuleId,
  type Severity,
} from "@/lib/findings/finding";
import {
  describeGroup,
  mergeRules,
  RULES,
  type IgnoredOverride,
  type Rule,
  type RulesUpdateRequest,
  type RuleSet,
} from "@/lib/findings/rules";
import {
  encodeFindingsCursor,
  findingsFilterQuery,
  findingsQuery,
  type FindingsFilters,
} from "@/lib/validations/findings";
import { FLEET, type WorkspaceScope } from "../scope";
import { countsByRule, countsByTemplate, findingParts, liveGroupsOf, pageOfGroups } from "./finding-parts";
import { GROUP_ORDER, severityRank } from "./findings-order";
import { currentKeptRules } from "./kept-findings";

export type { Finding, FindingGroup, IgnoredOverride, Rule, RuleId, RuleSet, Severity };

/** What every findings query is given besides its filters: the instant, and the rules when already read. */
type Context = { now?: Date; rules?: RuleSet };

/** As the route has parsed them (a cursor decoded); `rules`: the rules in effect when the caller has read them. */
export type FindingsParams = Partial<z.output<typeof findingsQuery>> & Context;

/** How many findings, and rows of them, there are: by rule, and by severity. */
export type FindingCounts = {
  /** Findings (each orphaned folder counts). */
  total: number;
  /** Rows of the lists (identical findings of one workspace are one row). */
  rows: number;
  bySeverity: Record<Severity, number>;
  /** The rules with findings, in the catalog's order. */
  byRule: { ruleId: RuleId; severity: Severity; count: number; rows: number; bytes: number | null }[];
};

/** One template's findings of a rule: how many, in how many rows and workspaces, and their bytes. */
export type TemplateCount = {
  /** Null for the workspaces without a template. */
  template: string | null;
  count: number;
  rows: number;
  workspaces: number;
  /** The sum of the findings' sizes; null when the rule's value is not a size. */
  bytes: number | null;
};

export type FindingsList = {
  /** One page of rows, most urgent first. */
  findings: FindingGroup[];
  /** The `cursor` of the next page; null on the last one. */
  nextCursor: string | null;
  /**
   * On the first page (no cursor), the counts under every filter but severity (what each severity would list:
   * with no filter, the overview's counts); null on later pages.
   */
  counts: FindingCounts | null;
  /**
   * On the first page of one rule's findings (no template or workspace picked), its findings by template, the
   * most first; null otherwise.
   */
  byTemplate: TemplateCount[] | null;
};

export type FindingsSummary = FindingCounts & {
  /** The most urgent few rows. */
  top: FindingGroup[];
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

/** Stores an admin's changes to the rules (validated by `rulesUpdateRequest`), each over its stored values. */
export async function saveRuleChanges(tx: Db, changes: RulesUpdateRequest["rules"]): Promise<void> {
  for (const u of changes) {
    const set: Partial<typeof findingRules.$inferInsert> = { updatedAt: new Date() };
    if (u.enabled !== undefined) set.enabled = u.enabled;
    if (u.severity !== undefined) set.severity = u.severity;
    if (u.params !== undefined) set.params = u.params;
    await tx
      .insert(findingRules)
      .values({ id: u.id, enabled: u.enabled ?? null, severity: u.severity ?? null, params: u.params ?? null })
      .onConflictDoUpdate({ target: findingRules.id, set });
  }
}

type GroupRow = {
  rule_id: RuleId;
  workspace_id: string;
  agent: string | null;
  name: string;
  owner: string;
  n: number;
  total: number;
  /** Its members, the most urgent few (read from kept_findings for a kept group, built for a computed one). */
  members: Members;
};

type Members = (FindingMember & { threshold: number })[];

function toGroup(rules: RuleSet, r: GroupRow): FindingGroup {
  const id = r.rule_id;
  const members = r.members;
  const [first] = members;
  return describeGroup(
    {
      ruleId: id,
      severity: (rules[id] as Rule).severity,
      workspace: { id: r.workspace_id, name: r.name, owner: r.owner },
      rootKey: first.rootKey,
      agent: r.agent,
      path: first.path,
      value: Number(first.value),
      threshold: Number(first.threshold),
      unit: RULES[id].unit,
    },
    Number(r.n),
    Number(r.total),
    members.map((m) => ({ rootKey: m.rootKey, path: m.path, value: Number(m.value) })),
  );
}

type CountRow = { rule_id: RuleId; n: number; g: number; total: number };

/** A sum of a rule's values as bytes: null when its values are not sizes. */
const bytesOf = (id: RuleId, total: number) => (RULES[id].unit === "bytes" ? Number(total) : null);

/** The counts by rule, in the catalog's order, and their sums by severity. */
function toCounts(rules: RuleSet, found: CountRow[]): FindingCounts {
  const counts: FindingCounts = { total: 0, rows: 0, bySeverity: { critical: 0, warning: 0, info: 0 }, byRule: [] };
  for (const id of RULE_IDS) {
    const r = found.find((x) => x.rule_id === id);
    if (!r) continue;
    const severity = rules[id].severity;
    counts.byRule.push({ ruleId: id, severity, count: Number(r.n), rows: Number(r.g), bytes: bytesOf(id, r.total) });
    counts.total += Number(r.n);
    counts.rows += Number(r.g);
    counts.bySeverity[severity] += Number(r.n);
  }
  return counts;
}

const NO_COUNTS: CountRow[] = [];

/**
 * Counts of findings and rows under the filters, by rule and severity: the one count that the overview and the
 * findings page both show.
 */
export async function countFindings(
  db: Db,
  scope: WorkspaceScope,
  params: FindingsFilters & Context = {},
): Promise<FindingCounts> {
  const f = findingsFilterQuery.parse(params);
  const rules = params.rules ?? (await getRules(db));
  const parts = findingParts(rules, params.now ?? new Date(), f, scope, await currentKeptRules(db, rules));
  if (!parts) return toCounts(rules, NO_COUNTS);
  // The findings' counts and pages are CTEs composed from each rule's SQL (ruleRows), read through db.execute.
  const found = rowsOf<CountRow>(await db.execute(sql`with ${liveGroupsOf(parts)} ${countsByRule(parts)}`));
  return toCounts(rules, found);
}

const DEFAULT_LIMIT = findingsQuery.shape.limit.parse(undefined);

/**
 * One page of the findings lists, most urgent first (GROUP_ORDER): `limit` rows after `cursor`, and on the first
 * page the counts under every filter but severity, from the same reading of the findings.
 */
export async function listFindings(db: Db, scope: WorkspaceScope, params: FindingsParams = {}): Promise<FindingsList> {
  const filters = findingsFilterQuery.parse(params);
  const { cursor, limit = DEFAULT_LIMIT } = params;
  const now = params.now ?? new Date();
  const rules = params.rules ?? (await getRules(db));
  const first = !cursor;
  // The counts are every severity's: the first page reads every severity's findings and shows one of them.
  const kept = await currentKeptRules(db, rules);
  const parts = findingParts(rules, now, first ? { ...filters, severity: undefined } : filters, scope, kept);
  const byTemplate = first ? await templateCounts(db, scope, filters, { now, rules }) : null;
  if (!parts) return { findings: [], nextCursor: null, counts: first ? toCounts(rules, NO_COUNTS) : null, byTemplate };
  const sev = first && filters.severity ? severityRank(filters.severity) : undefined;
  const page: PageParts = {
    after: keysetAfter(GROUP_ORDER, cursor ?? null),
    order: keysetOrder(GROUP_ORDER),
    keyColumns: keysetColumns(GROUP_ORDER),
    // One more row than asked says whether there is a next page.
    limit: limit + 1,
  };
  const found = rowsOf<(GroupRow & Record<string, string | null>) & { counts?: CountRow[] }>(
    await db.execute(pageOfGroups(parts, page, { sev, counts: first })),
  );
  const groups = found.filter((r) => r.rule_id !== null);
  const shown = groups.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    findings: shown.map((r) => toGroup(rules, r)),
    nextCursor: groups.length > limit ? encodeFindingsCursor(GROUP_ORDER.map((_, i) => last[`k${i}`])) : null,
    counts: first ? toCounts(rules, found[0]?.counts ?? NO_COUNTS) : null,
    byTemplate,
  };
}

type TemplateRow = { template: string | null; n: number; g: number; w: number; total: number };

/** One rule's findings by template, when a rule and neither a template nor a workspace is picked. */
async function templateCounts(
  db: Db,
  scope: WorkspaceScope,
  f: FindingsFilters,
  ctx: Required<Context>,
): Promise<TemplateCount[] | null> {
  const rule = f.rule;
  if (!rule || f.template || f.workspace) return null;
  const parts = findingParts(ctx.rules, ctx.now, f, scope, await currentKeptRules(db, ctx.rules));
  if (!parts) return [];
  const found = rowsOf<TemplateRow>(await db.execute(countsByTemplate(parts)));
  return found.map((r) => ({
    template: r.template,
    count: Number(r.n),
    rows: Number(r.g),
    workspaces: Number(r.w),
    bytes: bytesOf(rule, r.total),
  }));
}

/** Every row under the filters, in the lists' order, read in keyset pages (the CSV export). */
export async function* findingGroupRows(
  db: Db,
  scope: WorkspaceScope,
  params: FindingsFilters & Context = {},
  opts?: PageOptions,
): AsyncGenerator<FindingGroup> {
  const f = findingsFilterQuery.parse(params);
  const rules = params.rules ?? (await getRules(db));
  const parts = findingParts(rules, params.now ?? new Date(), f, scope, await currentKeptRules(db, rules));
  if (!parts) return;
  const groups = keysetRows<GroupRow>(db, GROUP_ORDER, (page) => pageOfGroups(parts, page), opts);
  for await (const r of groups) yield toGroup(rules, r);
}

/** The overview's findings (a fleet page: viewers and admins only): the counts over the whole fleet, and the most urgent few rows. */
export async function getFindingsSummary(db: Db, params: Context & { top?: number } = {}): Promise<FindingsSummary> {
  const now = params.now ?? new Date();
  const rules = params.rules ?? (await getRules(db));
  const list = await listFindings(db, FLEET, { now, rules, limit: params.top ?? 5 });
  return { ...list.counts!, top: list.findings };
}
