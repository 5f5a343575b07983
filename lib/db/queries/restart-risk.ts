import "server-only";
import { sql } from "drizzle-orm";
import { holdsSessions } from "@/lib/findings/rules/agent-data-lost";
import type { RestartFilter } from "@/lib/validations/restart";
import { losesAtRestart } from "../schema";
import { inScope, type WorkspaceScope } from "../scope";
import { rowsOf, type Db } from "../types";

// The workspaces that lose agent data at a restart, from the newest report's persistence facts: those whose home
// is not on a persistent volume, and those with an agent's folder on storage lost at a stop. Grouped by template
// on the page, since the cause is nearly always the template.

/** One folder lost at a restart. */
export type LostRoot = {
  key: string;
  agent: string;
  bytes: number;
  sessionBytes: number;
  /** It holds sessions: measured, or an agent's session folder linked elsewhere (not measured behind the link). */
  sessions: boolean;
  where: string;
};

export type AtRiskWorkspace = {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  /** The home itself is lost (everything under it is). */
  homeLost: boolean;
  /** Where the home lives: "overlay at /", and why it is or is not kept. */
  home: string | null;
  homeReason: string | null;
  /** The agents' folders lost (all of them when the home is). */
  lost: LostRoot[];
  lostBytes: number;
  lostSessionBytes: number;
};

export type TemplateRisk = { template: string | null; workspaces: number; atRisk: AtRiskWorkspace[] };
export type RestartRisk = { templates: TemplateRisk[]; atRisk: number; reporting: number };

type Row = {
  id: string;
  name: string;
  owner: string;
  template: string | null;
  home_lost: boolean;
  home: string | null;
  home_reason: string | null;
  lost: LostRoot[] | string | null;
};

const placed = sql`(w.persistence -> 'roots' -> r.root_key)`;
const where = sql`coalesce(${placed} -> 'link' ->> 'path' || ' → ' || (${placed} -> 'link' ->> 'target'),
  (${placed} -> 'mount' ->> 'fsType') || ' at ' || (${placed} -> 'mount' ->> 'mountPoint'))`;

/**
 * Every workspace that reports persistence facts (in the scope, not deleted), counted by template, and those at
 * risk with why (or one template's, or one workspace's). The fleet is counted whole: it is the denominator of each
 * template. Only the workspaces at risk come back as rows, read by the index on whether they are
 * (`losesAtRestart`), and of their latest roots only those their facts place on storage lost at a stop, each by
 * root_latest's key: at 100,000 workspaces, a row and a read of the roots for each took the page to 9 s, a test
 * of every workspace's facts to 0.9 s (docs/benchmarks.md).
 */
export async function getRestartRisk(db: Db, scope: WorkspaceScope, filter: RestartFilter = {}): Promise<RestartRisk> {
  const only = sql.join(
    [
      filter.template === undefined ? sql`` : sql`and coalesce(w.template, '') = ${filter.template}`,
      filter.workspace === undefined ? sql`` : sql`and w.id = ${filter.workspace}`,
    ],
    sql` `,
  );
  const reporting = sql`w.persistence is not null and w.deleted_at is null and ${inScope(scope, sql`w.owner`)} ${only}`;
  const homeLost = sql`coalesce(w.persistence -> 'home' ->> 'verdict' = 'not-persistent', false)`;
  // A lateral jsonb_agg per workspace (the roots a restart loses) over jsonb facts: SQL through db.execute.
  const [counts, rows] = await Promise.all([
    db.execute(sql`select w.template, count(*)::int as n from workspaces w where ${reporting} group by w.template`),
    db.execute(sql`select w.id, w.name, w.owner, w.template, ${homeLost} as home_lost,
        (w.persistence -> 'home' -> 'mount' ->> 'fsType') || ' at ' || (w.persistence -> 'home' -> 'mount' ->> 'mountPoint') as home,
        w.persistence -> 'home' ->> 'reason' as home_reason, lost.list as lost
      from workspaces w
      left join lateral (
        select jsonb_agg(jsonb_build_object('key', r.root_key, 'agent', r.agent, 'bytes', r.bytes,
            'sessionBytes', coalesce((r.categories -> 'sessions' ->> 'bytes')::bigint, 0),
            'sessions', ${holdsSessions}, 'where', ${where})
          order by r.bytes desc, r.root_key) as list
        from jsonb_each(w.persistence -> 'roots') p(key, placed)
        join root_latest r on r.workspace_id = w.id and r.root_key = p.key
        where p.placed ->> 'verdict' = 'not-persistent' and r.kind in ('tool', 'module', 'legacy', 'custom')
      ) lost on true
      where ${reporting} and ${losesAtRestart(sql`w.persistence`)} and (${homeLost} or lost.list is not null)
      order by w.template nulls last, w.name, w.id`),
  ]);
  const byTemplate = new Map<string | null, TemplateRisk>();
  let total = 0;
  for (const c of rowsOf<{ template: string | null; n: number }>(counts)) {
    byTemplate.set(c.template, { template: c.template, workspaces: c.n, atRisk: [] });
    total += c.n;
  }
  const atRisk = rowsOf<Row>(rows);
  for (const r of atRisk) {
    const lost = ((typeof r.lost === "string" ? JSON.parse(r.lost) : r.lost) ?? []) as LostRoot[];
    byTemplate.get(r.template)?.atRisk.push({
      id: r.id,
      name: r.name,
      owner: r.owner,
      template: r.template,
      homeLost: r.home_lost,
      home: r.home,
      homeReason: r.home_reason,
      lost,
      lostBytes: lost.reduce((n, l) => n + Number(l.bytes), 0),
      lostSessionBytes: lost.reduce((n, l) => n + Number(l.sessionBytes), 0),
    });
  }
  const templates = [...byTemplate.values()]
    .filter((t) => t.atRisk.length)
    .sort((a, b) => b.atRisk.length - a.atRisk.length || (a.template ?? "").localeCompare(b.template ?? ""));
  return { templates, atRisk: atRisk.length, reporting: total };
}
