import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { findingRules } from "../schema";
import { rowsOf, type Db } from "../types";
import { recordAudit, type Who } from "./audit";
import { describeFinding } from "@/lib/findings/describe";
import {
  compareFindings,
  mergeRules,
  RULE_IDS,
  type Finding,
  type IgnoredOverride,
  type Rule,
  type RuleId,
  type RulesUpdateRequest,
  type RuleSet,
  type Severity,
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
    .select({ id: findingRules.id, enabled: findingRules.enabled, severity: findingRules.severity, params: findingRules.params })
    .from(findingRules);
  const merged = mergeRules(rows);
  for (const i of merged.ignored) {
    const key = `${i.id} ${JSON.stringify(i.params)}`;
    if (loggedIgnored.has(key)) continue;
    loggedIgnored.add(key);
    console.warn(`[findings] the stored thresholds of rule ${i.id} no longer validate (${i.problem}); its defaults apply until an admin saves it`);
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
    await recordAudit(tx, { ...who, action: "rules.updated", target: req.rules.map((r) => r.id).join(","), details: { changes: req.rules } });
  });
  return getRulesView(db);
}

/** One candidate row of a rule, as its SQL returns it. */
export type RuleRow = {
  workspace_id: string;
  name: string;
  owner: string;
  root_key: string | null;
  agent: string | null;
  path: string | null;
  value: number;
  threshold: number;
  total: number | string;
};

export type RuleQuery = { unit: Finding["unit"]; from: SQL; order: SQL };

const num = (n: number) => sql`${n}::float8`;

/**
 * Each rule as SQL over the latest tables only (root_latest joined to workspaces): the columns workspace_id,
 * root_key, agent, path, value, threshold, and an `order` that puts the most urgent first.
 */
export function ruleQuery(id: RuleId, rules: RuleSet, now: Date, ws: SQL): RuleQuery {
  const nowTs = sql`${now.toISOString()}::timestamptz`;
  const over = { unit: "bytes" as const, order: sql`value / greatest(threshold, 1) desc` };
  switch (id) {
    case "root-oversize": {
      const p = rules[id].params;
      const th = sql`coalesce((${JSON.stringify(p.byAgent)}::jsonb ->> r.agent)::float8, ${num(p.defaultBytes)})`;
      return {
        ...over,
        from: sql`select r.workspace_id, r.root_key, r.agent, null::text as path, r.bytes::float8 as value, ${th} as threshold
          from root_latest r where r.kind not in ('script-data', 'leftover') and r.bytes::float8 > ${th} ${ws}`,
      };
    }
    case "large-session": {
      const th = num(rules[id].params.bytes);
      return {
        ...over,
        from: sql`select r.workspace_id, r.root_key, r.agent, e ->> 'path' as path, (e ->> 'bytes')::float8 as value,
            ${th} as threshold
          from root_latest r cross join lateral jsonb_array_elements(r.largest) e
          where r.bytes::float8 > ${th} and e ->> 'type' = 'session' and (e ->> 'bytes')::float8 > ${th} ${ws}`,
      };
    }
    case "fast-growth": {
      const th = num(rules[id].params.bytesPerDay);
      return {
        unit: "bytesPerDay",
        order: over.order,
        from: sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
            w.growth_bytes_per_day::float8 as value, ${th} as threshold
          from workspaces w where w.growth_bytes_per_day > ${th} ${ws}`,
      };
    }
    case "volume-full":
    case "inodes-full": {
      const th = rules[id].params.usedPercent;
      const col = id === "volume-full" ? sql`w.volume_used_pct` : sql`w.volume_inodes_used_pct`;
      return {
        unit: "percent",
        order: sql`value desc`,
        from: sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
            ${col}::float8 as value, ${num(th)} as threshold
          from workspaces w where ${col} >= ${th} ${ws}`,
      };
    }
    case "volume-filling": {
      const days = num(rules[id].params.days);
      // A volume the volume-full rule already flags is past forecasting.
      const notFull = rules["volume-full"].enabled
        ? sql`and coalesce(w.volume_used_pct, 0) < ${rules["volume-full"].params.usedPercent}`
        : sql``;
      return {
        unit: "days",
        order: sql`value asc`,
        from: sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
            greatest(extract(epoch from (w.forecast_full_at - ${nowTs})) / 86400, 0)::float8 as value, ${days} as threshold
          from workspaces w where w.forecast_full_at is not null
            and w.forecast_full_at <= ${nowTs} + make_interval(secs => ${days} * 86400) ${notFull} ${ws}`,
      };
    }
    case "orphaned-script-data": {
      const th = num(rules[id].params.minBytes);
      return {
        unit: "bytes",
        order: sql`value desc`,
        from: sql`select r.workspace_id, r.root_key, r.agent, r.path, r.bytes::float8 as value, ${th} as threshold
          from root_latest r where r.kind = 'script-data' and r.orphaned and r.bytes::float8 >= ${th} ${ws}`,
      };
    }
    case "agentapi-leftover": {
      // Leftovers are listed inside their root; reporters before 0.2 sent each as a root of kind "leftover".
      const th = num(rules[id].params.minBytes);
      return {
        unit: "bytes",
        order: sql`value desc`,
        from: sql`select * from (
            select r.workspace_id, r.root_key, r.agent,
              (select string_agg(e ->> 'path', ', ' order by e ->> 'path') from jsonb_array_elements(r.leftovers) e) as path,
              (select sum((e ->> 'bytes')::float8) from jsonb_array_elements(r.leftovers) e) as value, ${th} as threshold
            from root_latest r where r.leftovers <> '[]'::jsonb ${ws}
            union all
            select r.workspace_id, r.root_key, r.agent, r.path, r.bytes::float8, ${th}
            from root_latest r where r.kind = 'leftover' ${ws}) x
          where value >= ${th}`,
      };
    }
    case "silent-workspace": {
      const hours = num(rules[id].params.hours);
      const since = sql`coalesce(w.last_collected_at, w.first_seen_at)`;
      return {
        unit: "hours",
        order: sql`value desc`,
        from: sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
            (extract(epoch from (${nowTs} - ${since})) / 3600)::float8 as value, ${hours} as threshold
          from workspaces w where ${since} < ${nowTs} - make_interval(secs => ${hours} * 3600) ${ws}`,
      };
    }
    case "claude-debug-history": {
      // The reporter files Claude's debug/ under "logs"; file-history/ is counted from the largest entries.
      const min = num(rules[id].params.minBytes);
      const debugHistory = sql`(coalesce((r.categories -> 'logs' ->> 'bytes')::float8, 0) + coalesce((select sum((e ->> 'bytes')::float8)
          from jsonb_array_elements(r.largest) e where e ->> 'path' = 'file-history' or e ->> 'path' like 'file-history/%'), 0))`;
      const sessions = sql`coalesce((r.categories -> 'sessions' ->> 'bytes')::float8, 0)`;
      return {
        unit: "bytes",
        order: sql`value - threshold desc`,
        from: sql`select * from (select r.workspace_id, r.root_key, r.agent, null::text as path, ${debugHistory} as value,
            ${sessions} as threshold
          from root_latest r where r.agent = 'claude-code' and r.kind in ('tool', 'legacy') and r.bytes::float8 >= ${min} ${ws}) x
          where value > threshold and value >= ${min}`,
      };
    }
  }
}

/** Rules over the workspaces table (alias w) rather than root_latest (alias r). */
const WORKSPACE_RULES = new Set<RuleId>(["fast-growth", "volume-full", "inodes-full", "volume-filling", "silent-workspace"]);

/** The condition that limits a rule's query to one workspace (nothing when `workspace` is unset). */
export function ruleScope(id: RuleId, workspace: string | undefined): SQL {
  const wsCol = WORKSPACE_RULES.has(id) ? sql`w.id` : sql`r.workspace_id`;
  return workspace ? sql`and ${wsCol} = ${workspace}` : sql``;
}

/** The enabled rules a filter keeps (one rule, one severity, or all). */
export function selectedRules(rules: RuleSet, opts: { rule?: RuleId; severity?: Severity }): RuleId[] {
  return RULE_IDS.filter((id) => {
    const rule = rules[id] as Rule;
    return rule.enabled && (!opts.rule || opts.rule === id) && (!opts.severity || opts.severity === rule.severity);
  });
}

/** A rule's row (joined to its workspace's name and owner) as a finding with its wording. */
export function toFinding(id: RuleId, rules: RuleSet, unit: Finding["unit"], r: RuleRow): Finding {
  return describeFinding({
    ruleId: id,
    severity: (rules[id] as Rule).severity,
    workspace: { id: r.workspace_id, name: r.name, owner: r.owner },
    rootKey: r.root_key,
    agent: r.agent,
    path: r.path,
    value: Number(r.value),
    threshold: Number(r.threshold),
    unit,
  });
}

type RunResult = { findings: Finding[]; counts: { ruleId: RuleId; severity: Severity; count: number }[] };

/** Runs the enabled rules (optionally one rule, one severity, one workspace): up to `limit` findings per rule, and each rule's full count. */
async function runRules(
  db: Db,
  opts: { rules: RuleSet; now: Date; workspace?: string; rule?: RuleId; severity?: Severity; limit: number },
): Promise<RunResult> {
  const findings: Finding[] = [];
  const counts: RunResult["counts"] = [];
  for (const id of selectedRules(opts.rules, opts)) {
    const rule = opts.rules[id] as Rule;
    const q = ruleQuery(id, opts.rules, opts.now, ruleScope(id, opts.workspace));
    const rows = rowsOf<RuleRow>(
      await db.execute(sql`select f.*, w.name, w.owner, count(*) over () as total
        from (${q.from}) f join workspaces w on w.id = f.workspace_id
        order by ${q.order}, f.workspace_id, f.root_key nulls first, f.path nulls first limit ${opts.limit}`),
    );
    counts.push({ ruleId: id, severity: rule.severity, count: rows.length ? Number(rows[0].total) : 0 });
    for (const r of rows) findings.push(toFinding(id, opts.rules, q.unit, r));
  }
  findings.sort(compareFindings);
  return { findings, counts };
}

/** Findings from the newest data (root_latest and workspaces; never history), most urgent first. */
export async function listFindings(db: Db, params: FindingsParams = {}): Promise<FindingsList> {
  const p = findingsQuery.parse(params);
  const rules = params.rules ?? (await getRules(db));
  const { findings, counts } = await runRules(db, { ...p, rules, now: params.now ?? new Date() });
  const total = counts.reduce((s, c) => s + c.count, 0);
  return { findings: findings.slice(0, p.limit), total, truncated: total > p.limit };
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
    top: findings.slice(0, top),
  };
}
