// A synthetic fleet generated inside Postgres (generate_series, no client round trips) for the scale benchmark:
// workspaces with their summary, root_latest, `days` of daily roll-ups (root_daily, workspace_daily and the
// fleet's changes in fleet_delta, consistent with root_latest), and `rawDays` of raw reports.
// Every root's bytes are base − growth × days ago, so today's values (and every page's answer about today) are
// the same whatever the length of history.
import type { Pool } from "pg";
import { statusLine, type StatusOut } from "./status-line";

export type FleetShape = { workspaces: number; roots: number; days: number; rawDays: number; rawPerDay: number };

const AGENTS = ["claude-code", "codex", "gemini", "goose", "opencode", "other"];
const KINDS = ["tool", "module", "legacy", "script-data"];

// One row per workspace and root with its constants, of workspaces `from` to `to`, `roots` roots each (SQL).
const rootsOf = (from: string, to: string, roots: string) => `select i, k, 'ws-' || lpad(i::text, 6, '0') as ws,
    (array['${AGENTS.join("','")}'])[1 + k % ${AGENTS.length}] as agent,
    (array['${KINDS.join("','")}'])[1 + k % ${KINDS.length}] as kind,
    ((8 + (i * 7 + k * 13) % 997)::bigint << 20) as base, (((i + k) % 11)::bigint << 13) as growth
  from generate_series(${from}::int, ${to}::int) i, generate_series(0, ${roots}::int - 1) k`;
// Every workspace's: $1 workspaces, $2 roots.
const ROOTS = rootsOf("1", "$1", "$2");
// The first root of each workspace is Claude Code's data folder, with session usage by age, so a cleanup preview
// of claude-code-sessions has every workspace to price.
export const rootKey = (agent: string, k: number) => (k === 0 ? "claude-code:data" : `${agent}:r${k}`);
const KEY = `case when k = 0 then 'claude-code:data' else agent || ':r' || k end`;
// Sessions of the claude-code:data root by age step (the reporter's RECIPE_AGE_STEPS_DAYS): a tenth of the
// root's bytes in each of steps 5, 9 (30 days), 11 (90 days) and the oldest, 10 units each.
const SESSIONS = `case when k = 0 then jsonb_build_object('claude-code-sessions', jsonb_build_object('units', 40,
    'bytes', 4 * (base / 10), 'protectedUnits', 0, 'protectedBytes', 0, 'byAge', (select jsonb_agg(case when s in (5, 9, 11, 16)
      then jsonb_build_array(10, base / 10) else jsonb_build_array(0, 0) end order by s) from generate_series(0, 16) s)))
  else '{}'::jsonb end`;

// Every workspace reports where its roots live; one in 20 keeps Claude Code's data on a tmpfs, lost at a stop
// (the restart risk page's and the agent-data-lost rules' subjects).
const PERSISTENCE = `jsonb_build_object('home', jsonb_build_object('mount', null, 'verdict', 'persistent', 'reason', 'a volume'),
    'roots', case when i % 20 = 0 then jsonb_build_object('claude-code:data', jsonb_build_object('verdict', 'not-persistent',
      'reason', 'tmpfs is lost at every stop', 'mount', jsonb_build_object('mountPoint', '/home/coder/.claude', 'fsType', 'tmpfs',
        'source', 'tmpfs', 'root', '/', 'homeVolume', false))) else '{}'::jsonb end)`;

/** Writes the fleet of `shape` through `pool`, each table's progress and rows to `out`. */
export async function generateFleet(pool: Pool, shape: FleetShape, out: StatusOut = process.stdout): Promise<void> {
  // The large tables go in parts (the statement once per entry of `parts`, its extra parameters), so that the
  // status line tells how far a load of millions of rows is: a bar redrawn in place on a terminal.
  const status = statusLine(out, { prefix: "  " });
  const q = async (label: string, text: string, params: unknown[] = [], parts: unknown[][] = [[]]) => {
    const t = performance.now();
    let rows = 0;
    for (const [n, extra] of parts.entries()) {
      const elapsed = (performance.now() - t) / 1000;
      const secondsLeft = n === 0 ? null : (elapsed / n) * (parts.length - n);
      status.update("load", { stage: label, detail: `${n}/${parts.length}`, secondsLeft });
      rows += (await pool.query(text, [...params, ...extra])).rowCount ?? 0;
    }
    status.update("load", { stage: label, detail: `${parts.length}/${parts.length}`, secondsLeft: 0 });
    status.line(`  ${label}: ${rows} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  const p = [shape.workspaces, shape.roots];
  /** Workspace ranges of at most 10,000, as two parameters. */
  const ranges = Array.from({ length: Math.ceil(shape.workspaces / 10_000) }, (_, j) => [
    j * 10_000 + 1,
    Math.min(shape.workspaces, (j + 1) * 10_000),
  ]);
  /** The days of history, oldest first, as a parameter. */
  const daysBack = (days: number) => Array.from({ length: days }, (_, j) => [days - 1 - j]);
  await pool.query("set synchronous_commit = off");
  await q(
    "workspaces",
    `with r as (${ROOTS}), w as (select i, ws, sum(base) as total, count(*) as n from r group by i, ws)
    insert into workspaces (id, name, owner, template, agent_name, first_seen_at, last_seen_at, last_report_id,
      last_collected_at, volume_total_bytes, volume_free_bytes, volume_used_bytes, total_bytes, root_count,
      largest_agent, largest_agent_bytes, growth_bytes_per_day, forecast_full_at, persistence)
    select ws, 'dev-' || i, 'owner-' || (i % 500), 'tpl-' || (i % 7), 'main', now() - make_interval(days => $3),
      now() - make_interval(mins => i % 60), gen_random_uuid(), now() - make_interval(mins => i % 60),
      100::bigint << 30, (100::bigint << 30) - total - (20::bigint << 30) - ((i % 97)::bigint << 30), total + (20::bigint << 30) + ((i % 97)::bigint << 30),
      total, n, 'claude-code', total / 6, (i % 13) * 1048576.0,
      case when i % 13 > 10 then now() + make_interval(days => i % 40) end, ${PERSISTENCE}
    from w`,
    [...p, shape.days],
  );
  await q(
    "root_latest",
    `insert into root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs, recipes, categories, ages, largest)
    select w.last_report_id, w.last_collected_at, r.ws, ${KEY}, r.kind, r.agent, '.r/' || k, base, base - 1000, 100 + k, 10,
      ${SESSIONS},
      jsonb_build_object('sessions', jsonb_build_object('bytes', base / 2, 'files', 10)),
      jsonb_build_object('7d', jsonb_build_object('bytes', base / 4, 'files', 5), 'older', jsonb_build_object('bytes', base / 2, 'files', 5)),
      jsonb_build_array(jsonb_build_object('path', 's/' || k || '.jsonl', 'bytes', base / 3, 'mtime', '2026-01-01T00:00:00Z', 'type', 'session'))
    from (${rootsOf("$2", "$3", "$1")}) r join workspaces w on w.id = r.ws`,
    [shape.roots],
    ranges,
  );
  // Day by day, as ingest writes it (a day's rows close together in the table), not in key order.
  await q(
    "root_daily",
    `insert into root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
    select r.ws, ${KEY}, current_date - a, r.agent, r.kind, base - growth * a, base - growth * a - 1000, 100 + k,
      (current_date - a) + time '12:00' at time zone 'UTC'
    from (${ROOTS}) r, (select $3::int as a) d order by r.ws, ${KEY}`,
    p,
    daysBack(shape.days),
  );
  await q(
    "workspace_daily",
    `with w as (select ws, sum(base) as b, sum(growth) as g from (${ROOTS}) r group by ws)
    insert into workspace_daily (workspace_id, day, bytes, volume_total_bytes, volume_free_bytes, volume_used_bytes, collected_at)
    select ws, current_date - a, b - g * a, 100::bigint << 30, (80::bigint << 30) - b + g * a, b - g * a + (20::bigint << 30),
      (current_date - a) + time '12:00' at time zone 'UTC'
    from w, generate_series($3::int - 1, 0, -1) a order by a desc, ws`,
    [...p, shape.days],
  );
  // The fleet's changes: everything on the first day, then each day's growth; they add up to root_latest.
  await q(
    "fleet_delta",
    `with s as (select agent, kind, i % 8 as shard, sum(base) as b, sum(growth) as g, count(*) as n
      from (${ROOTS}) r group by 1, 2, 3)
    insert into fleet_delta (day, agent, kind, shard, bytes, roots)
    select current_date - a, agent, kind, shard, case when a = $3::int - 1 then b - g * a else g end,
      case when a = $3::int - 1 then n else 0 end
    from s, generate_series($3::int - 1, 0, -1) a where a = $3::int - 1 or g <> 0`,
    [...p, shape.days],
  );
  await q(
    "reports (raw)",
    `insert into reports (id, workspace_id, collected_at, received_at, reporter_version, scan_ms,
      total_bytes, root_count, volume_total_bytes, volume_free_bytes)
    select gen_random_uuid(), w.id, c.at, c.at, 'bench', 100, w.total_bytes, w.root_count, w.volume_total_bytes, w.volume_free_bytes
    from workspaces w, generate_series(0, $1::int * $2::int - 1) j,
      lateral (select w.last_collected_at - make_interval(secs => j * 86400.0 / $2::int) as at) c
    order by c.at`,
    [shape.rawDays, shape.rawPerDay],
  );
  await q(
    "root_usage (raw)",
    `insert into root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs, categories, ages, largest)
    select p.id, p.collected_at, p.workspace_id, l.root_key, l.kind, l.agent, l.path, l.bytes, l.apparent_bytes, l.files,
      l.dirs, l.categories, l.ages, l.largest
    from reports p join root_latest l on l.workspace_id = p.workspace_id
    where p.collected_at > $1::timestamptz - make_interval(days => $2 + 1)
      and p.collected_at <= $1::timestamptz - make_interval(days => $2)
    order by p.collected_at`,
    [new Date().toISOString()],
    daysBack(shape.rawDays + 1),
  );
  // As a deployment's history is once autovacuum has been through it: hint bits and the visibility map set.
  // Left to autovacuum, the first pass over the freshly loaded roll-ups ran during the timings and took a core.
  await q("vacuum (analyze)", "vacuum (analyze)");
  status.end();
}
