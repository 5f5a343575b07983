import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { RULE_IDS, type RuleId, type Severity } from "@/lib/findings/finding";
import type { Rule, RuleSet } from "@/lib/findings/rules";
import type { FindingsFilters } from "@/lib/validations/findings";
import { notDeleted, ofLiveWorkspace } from "../deleted";
import type { PageParts } from "../keyset";
import { inScope, type WorkspaceScope } from "../scope";
import { severityRank } from "./findings-order";
import { MEMBERS, ruleRows, workspaceFilter } from "./rule-rows";

// The SQL the findings lists are read with: the findings under the filters, their groups, a page of the groups
// with their members, and the counts by rule (lib/db/queries/findings.ts runs them).

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
export type FindingParts = { live: SQL; kept: SQL[]; keptCounts: SQL | null };

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
export function findingParts(
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
 * The kept groups' counts by rule (rule_id, n, g, total) of the rows `kept` selects, under `filters`. Without a filter on
 * the workspace (owner, template, a member's scope) the workspaces table only removes the deleted ones, which are
 * few: a hashed list of them instead of a join to every workspace (the fleet's counts: 27 ms instead of 80-95 ms
 * over 92,000 kept groups at 10,000 workspaces).
 */
function keptCountsOf(kept: SQL, opts: { filters: SQL; ofAgent: SQL; onWorkspace: boolean }): SQL {
  const [from, where] = opts.onWorkspace
    ? [sql`kept_findings f join workspaces w on w.id = f.workspace_id`, opts.filters]
    : [sql`kept_findings f`, sql`${ofLiveWorkspace(sql`f.workspace_id`)} and ${opts.ofAgent}`];
  return sql`select f.rule_id, sum(f.n)::int4 as n, count(*)::int4 as g, sum(f.total)::float8 as total from ${from}
    where (${kept}) and ${where} group by f.rule_id`;
}

/**
 * The computed findings `f`, and their groups (alias lg) as the lists group them: one rule, workspace and agent
 * as one, with their count, the sum of their values and their highest urgency. Scalars only: the members,
 * built as JSON or read from kept_findings, are read for one page's groups only.
 */
export const liveGroupsOf = (parts: FindingParts) => sql`f as materialized (${parts.live}),
    lg as materialized (select f.rule_id, min(f.sev) as sev, f.workspace_id, coalesce(f.agent, '') as agent_key,
        min(f.agent) as agent, min(f.name) as name, min(f.owner) as owner, count(*)::int4 as n,
        sum(f.value)::float8 as total, max(f.urgency)::float8 as urgency, false as kept
      from f group by f.rule_id, f.workspace_id, coalesce(f.agent, ''))`;

/**
 * The findings, groups and sum of values per rule (rule_id, n, g, total): the computed groups' and the kept
 * ones'.
 */
export const countsByRule = (parts: FindingParts) =>
  sql`select lg.rule_id, sum(lg.n)::int4 as n, count(*)::int4 as g, sum(lg.total)::float8 as total from lg
    group by lg.rule_id ${parts.keptCounts ? sql`union all ${parts.keptCounts}` : sql``}`;

/**
 * The findings by template (template, n: findings, g: workspace rows, w: workspaces, total: their values'
 * sum), the most findings first: a rule's tens of rows to read before its thousands. Workspaces without a
 * template are one row, template null.
 */
export const countsByTemplate = (parts: FindingParts) => {
  const groups = [
    sql`select workspace_id, n, total from lg`,
    ...parts.kept.map((k) => sql`select workspace_id, n, total from (${k}) k`),
  ];
  return sql`with ${liveGroupsOf(parts)}
    select w.template, sum(g.n)::int4 as n, count(*)::int4 as g, count(distinct g.workspace_id)::int4 as w,
        sum(g.total)::float8 as total
      from (${sql.join(groups, sql` union all `)}) g join workspaces w on w.id = g.workspace_id
      group by w.template order by n desc, w.template collate "C" nulls last`;
};

/**
 * One page of groups (alias g, in GROUP_ORDER, after `page.after`, `sev` their severity rank when one is asked
 * for) with their members, the most urgent few (the first one whole); with `counts`, each row also carries the
 * counts by rule of every group, and an empty page is one row of counts alone (`rule_id` null). The page is
 * the first rows of the computed groups and of each kept rule's groups (read in order from its index: the
 * fleet's 96,000 kept groups are counted, never sorted), in order. The computed findings are read once
 * (materialized CTEs) for the groups, the page's members and the counts.
 */
export function pageOfGroups(parts: FindingParts, page: PageParts, opts: { sev?: number; counts?: boolean } = {}): SQL {
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
