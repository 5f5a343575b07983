import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { findingRules } from "../schema";
import { keysetAfter, keysetColumns, keysetOrder, keysetRows, type PageOptions, type PageParts } from "../keyset";
import { rowsOf, type Db } from "../types";
import { recordAudit, type Who } from "./audit";
import {
  RULE_IDS,
  type Finding,
  type FindingGroup,
  type FindingMember,
  type RuleId,
  type Severity,
} from "@/lib/findings/finding";
import { GROUP_ORDER, severityRank } from "@/lib/findings/order";
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
import { notDeleted, ofLiveWorkspace } from "../deleted";
import { FLEET, inScope, type WorkspaceScope } from "../scope";
import { currentKeptRules, rewriteKeptRules } from "./kept-findings";
import { isKept, MEMBERS, ruleRows, workspaceFilter } from "./rule-rows";

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
  byRule: { ruleId: RuleId; severity: Severity; count: number; rows: number }[];
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

/** Applies an admin's changes (validated by `rulesUpdateRequest`) and returns the rules page's view of them. */
export async function updateRules(db: Db, req: RulesUpdateRequest, who: Who): Promise<RulesResponse> {
  await db.transaction(async (tx) => {
    // The new thresholds' findings commit with them.
    const kept = req.rules.filter((u) => u.params !== undefined && isKept(u.id)).map((u) => u.id);
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
    if (kept.length > 0) await rewriteKeptRules(tx, await getRules(tx), kept);
    await recordAudit(tx, {
      ...who,
      action: "rules.updated",
      target: req.rules.map((r) => r.id).join(","),
      details: { changes: req.rules },
    });
  });
  return getRulesView(db);
}

/** The enabled rules a filter keeps (one rule, one severity, or all). */
export function selectedRules(rules: RuleSet, opts: { rule?: RuleId; severity?: Severity }): RuleId[] {
  return RULE_IDS.filter((id) => {
    const rule = rules[id] as Rule;
    return rule.enabled && (!opts.rule || opts.rule === id) && (!opts.severity || opts.severity === rule.severity);
  });
}

/**
 * What the lists read: the computed findings (`live`, one row each), the kept groups of each kept rule (`kept`),
 * and the kept groups' counts by rule (`keptCounts`: rule_id, n, g).
 */
type FindingParts = { live: SQL; kept: SQL[]; keptCounts: SQL | null };

/** A typed empty set of findings: the parts' rows when none of its rules is selected. */
const NO_FINDINGS = sql`select null::text as rule_id, null::int4 as sev, null::text as workspace_id,
    null::text as root_key, null::text as agent, null::text as path, null::float8 as value, null::float8 as threshold,
    null::float8 as urgency, null::text as name, null::text as owner where false`;

/**
 * Every finding under the filters, from the newest data only (root_latest and workspaces, never history): the
 * kept rules' as their kept groups, one select per rule (alias-free columns rule_id, sev, workspace_id,
 * agent_key, agent, name, owner, n, total, urgency, kept: true; their members are read for a page's groups
 * only), the others computed, one row each (rule_id, sev, workspace_id, root_key, agent, path, value, threshold,
 * urgency, name, owner); null when no enabled rule is selected.
 */
function findingParts(
  rules: RuleSet,
  now: Date,
  f: FindingsFilters,
  scope: WorkspaceScope,
  kept: ReadonlySet<RuleId>,
): FindingParts | null {
  const ids = selectedRules(rules, f);
  if (ids.length === 0) return null;
  // The filters on the workspace (beyond its not being deleted), and the one on the finding's own agent.
  const onWorkspace: SQL[] = [];
  if (scope.kind !== "fleet") onWorkspace.push(inScope(scope, sql`w.owner`));
  if (f.owner) onWorkspace.push(sql`w.owner = ${f.owner}`);
  if (f.template) onWorkspace.push(sql`w.template = ${f.template}`);
  const ofAgent = f.agent ? sql`f.agent = ${f.agent}` : sql`true`;
  const filters = sql.join([notDeleted, ...onWorkspace, ofAgent], sql` and `);
  const sev = (id: RuleId) => sql`${severityRank(rules[id].severity)}::int4`;
  const live = ids
    .filter((id) => !kept.has(id))
    .map(
      (id) => sql`select ${id}::text as rule_id, ${sev(id)} as sev, f.workspace_id, f.root_key, f.agent, f.path,
          f.value, f.threshold, f.urgency, w.name, w.owner
        from (${ruleRows(id, rules, now, f.workspace)}) f join workspaces w on w.id = f.workspace_id where ${filters}`,
    );
  const keptIds = ids.filter((id) => kept.has(id));
  const keptOf = (id: RuleId) => sql`f.rule_id = ${id} ${workspaceFilter(sql`f.workspace_id`, f.workspace)}`;
  return {
    live: live.length > 0 ? sql.join(live, sql` union all `) : NO_FINDINGS,
    kept: keptIds.map(
      (id) => sql`select f.rule_id, ${sev(id)} as sev, f.workspace_id, f.agent_key, f.agent, w.name, w.owner, f.n,
          f.total, f.urgency, true as kept
        from kept_findings f join workspaces w on w.id = f.workspace_id where ${keptOf(id)} and ${filters}`,
    ),
    keptCounts:
      keptIds.length > 0
        ? keptCountsOf(sql.join(keptIds.map(keptOf), sql` or `), {
            filters,
            ofAgent,
            onWorkspace: onWorkspace.length > 0,
          })
        : null,
  };
}

/**
 * The kept groups' counts by rule (rule_id, n, g) of the rows `kept` selects, under `filters`. Without a filter on
 * the workspace (owner, template, a member's scope) the workspaces table only removes the deleted ones, which are
 * few: a hashed list of them instead of a join to every workspace (the fleet's counts: 27 ms instead of 80-95 ms
 * over 92,000 kept groups at 10,000 workspaces).
 */
function keptCountsOf(kept: SQL, opts: { filters: SQL; ofAgent: SQL; onWorkspace: boolean }): SQL {
  const [from, where] = opts.onWorkspace
    ? [sql`kept_findings f join workspaces w on w.id = f.workspace_id`, opts.filters]
    : [sql`kept_findings f`, sql`${ofLiveWorkspace(sql`f.workspace_id`)} and ${opts.ofAgent}`];
  return sql`select f.rule_id, sum(f.n)::int4 as n, count(*)::int4 as g from ${from}
    where (${kept}) and ${where} group by f.rule_id`;
}

/**
 * The computed findings `f`, and their groups (alias lg) as the lists group them: one rule, workspace and agent
 * as one, with their count, the sum of their values and their highest urgency. Scalars only: the members,
 * built as JSON or read from kept_findings, are read for one page's groups only.
 */
const liveGroupsOf = (parts: FindingParts) => sql`f as materialized (${parts.live}),
    lg as materialized (select f.rule_id, min(f.sev) as sev, f.workspace_id, coalesce(f.agent, '') as agent_key,
        min(f.agent) as agent, min(f.name) as name, min(f.owner) as owner, count(*)::int4 as n,
        sum(f.value)::float8 as total, max(f.urgency)::float8 as urgency, false as kept
      from f group by f.rule_id, f.workspace_id, coalesce(f.agent, ''))`;

/** The findings per rule and the groups per rule (rule_id, n, g): the computed groups' and the kept ones'. */
const countsByRule = (parts: FindingParts) =>
  sql`select lg.rule_id, sum(lg.n)::int4 as n, count(*)::int4 as g from lg group by lg.rule_id
    ${parts.keptCounts ? sql`union all ${parts.keptCounts}` : sql``}`;

/**
 * One page of groups (alias g, in GROUP_ORDER, after `page.after`, `sev` their severity rank when one is asked
 * for) with their members, the most urgent few (the first one whole); with `counts`, each row also carries the
 * counts by rule of every group, and an empty page is one row of counts alone (`rule_id` null). The page is
 * the first rows of the computed groups and of each kept rule's groups (read in order from its index: the
 * fleet's 96,000 kept groups are counted, never sorted), in order. The computed findings are read once
 * (materialized CTEs) for the groups, the page's members and the counts.
 */
function pageOfGroups(parts: FindingParts, page: PageParts, opts: { sev?: number; counts?: boolean } = {}): SQL {
  const sev = opts.sev === undefined ? sql`true` : sql`g.sev = ${opts.sev}`;
  const first = (from: SQL) => sql`(select g.*${page.keyColumns} from (${from}) g where ${sev} and ${page.after}
      order by ${page.order} limit ${page.limit})`;
  const candidates = sql.join([first(sql`select * from lg`), ...parts.kept.map(first)], sql` union all `);
  const groups = sql`${liveGroupsOf(parts)},
    p as (select g.* from (${candidates}) g order by ${page.order} limit ${page.limit}),
    m as (select f.rule_id, f.workspace_id, coalesce(f.agent, '') as agent_key, ${MEMBERS} as members
      from f join p on not p.kept and p.rule_id = f.rule_id and p.workspace_id = f.workspace_id
        and p.agent_key = coalesce(f.agent, '')
      group by 1, 2, 3),
    shown as (select g.*, coalesce(k.members, m.members) as members
      from p g left join m using (rule_id, workspace_id, agent_key)
        left join kept_findings k on g.kept and k.workspace_id = g.workspace_id and k.rule_id = g.rule_id
          and k.agent_key = g.agent_key)`;
  if (!opts.counts) return sql`with ${groups} select g.* from shown g order by ${page.order}`;
  return sql`with ${groups},
      c as (select coalesce(jsonb_agg(to_jsonb(x)), '[]'::jsonb) as counts from (${countsByRule(parts)}) x)
    select g.*, c.counts from c left join shown g on true order by ${page.order}`;
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

type CountRow = { rule_id: RuleId; n: number; g: number };

/** The counts by rule, in the catalog's order, and their sums by severity. */
function toCounts(rules: RuleSet, found: CountRow[]): FindingCounts {
  const counts: FindingCounts = { total: 0, rows: 0, bySeverity: { critical: 0, warning: 0, info: 0 }, byRule: [] };
  for (const id of RULE_IDS) {
    const r = found.find((x) => x.rule_id === id);
    if (!r) continue;
    const severity = rules[id].severity;
    counts.byRule.push({ ruleId: id, severity, count: Number(r.n), rows: Number(r.g) });
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
  if (!parts) return { findings: [], nextCursor: null, counts: first ? toCounts(rules, NO_COUNTS) : null };
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
  };
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
