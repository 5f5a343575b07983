-- One report that lands before its workspace's newest stored report: it enters history and corrects the
-- roll-ups as if it had arrived in order. Called by ingest_reports, which holds the workspace's row lock.
--
-- The roots it replaces are those of the report before it on the same day (raw history of a day inside the
-- retention is complete), or else the state at the end of the day before from root_daily, which outlives raw
-- history: so a report whose predecessor's raw rows have expired (a workspace silent for longer than the raw
-- retention) still gets the right changes. root_daily's value of a root on day D is the value in the last
-- report up to D (0 once removed); this function keeps that true for the next report's day too.
CREATE OR REPLACE FUNCTION ingest_late_report(p jsonb, p_shard smallint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_ws text := p->>'workspace';
  v_id uuid := (p->>'id')::uuid;
  v_at timestamptz := (p->>'collectedAt')::timestamptz;
  v_day date := ((p->>'collectedAt')::timestamptz AT TIME ZONE 'UTC')::date;
  v_total bigint;
  v_prev_id uuid;
  v_prev_at timestamptz;
  v_next_id uuid;
  v_next_at timestamptz;
  v_next_day date;
BEGIN
  SELECT id, collected_at INTO v_prev_id, v_prev_at FROM reports
  WHERE workspace_id = v_ws AND collected_at >= (v_day::timestamp AT TIME ZONE 'UTC') AND (collected_at, id) < (v_at, v_id)
  ORDER BY collected_at DESC, id DESC LIMIT 1;
  SELECT id, collected_at INTO v_next_id, v_next_at FROM reports
  WHERE workspace_id = v_ws AND (collected_at, id) > (v_at, v_id) ORDER BY collected_at, id LIMIT 1;
  v_next_day := (v_next_at AT TIME ZONE 'UTC')::date;
  SELECT coalesce(sum((r->>'bytes')::bigint), 0) INTO v_total FROM jsonb_array_elements(p->'roots') r;

  PERFORM ingest_report_rows(jsonb_build_array(p), '{1}');

  WITH rows AS (
    SELECT v_id AS report_id, v_at AS collected_at, v_ws AS workspace_id, x.* FROM ingest_roots(p->'roots') x
  ), prev AS (
    SELECT root_key, agent, kind, bytes FROM root_usage
    WHERE v_prev_id IS NOT NULL AND collected_at = v_prev_at AND workspace_id = v_ws AND report_id = v_prev_id
    UNION ALL
    -- A root's zero row marks its removal (a real root is never 0 bytes and 0 files: du counts its folder).
    SELECT root_key, agent, kind, bytes FROM (
      SELECT DISTINCT ON (root_key) root_key, agent, kind, bytes, apparent_bytes, files FROM root_daily
      WHERE v_prev_id IS NULL AND workspace_id = v_ws AND day < v_day ORDER BY root_key, day DESC
    ) d WHERE NOT (bytes = 0 AND apparent_bytes = 0 AND files = 0)
  ), next_roots AS (
    SELECT root_key FROM root_usage
    WHERE v_next_id IS NOT NULL AND collected_at = v_next_at AND workspace_id = v_ws AND report_id = v_next_id
  ), removed AS (
    SELECT * FROM prev p WHERE NOT EXISTS (SELECT 1 FROM rows r WHERE r.root_key = p.root_key)
  ), history AS (
    INSERT INTO root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest, leftovers, recipes)
    SELECT * FROM rows RETURNING 1
  ), daily AS (
    INSERT INTO root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
    -- A later report of the same day already set the day's values, including the roots it no longer had.
    SELECT workspace_id, root_key, v_day, agent, kind, bytes, apparent_bytes, files, collected_at FROM rows
    WHERE v_next_day IS DISTINCT FROM v_day
    UNION ALL SELECT v_ws, root_key, v_day, agent, kind, 0, 0, 0, v_at FROM removed WHERE v_next_day IS DISTINCT FROM v_day
    -- Roots this report has and the next one lacks end on the next report's day.
    UNION ALL SELECT v_ws, r.root_key, v_next_day, r.agent, r.kind, 0, 0, 0, v_next_at FROM rows r
    WHERE v_next_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM next_roots n WHERE n.root_key = r.root_key)
    ON CONFLICT (workspace_id, root_key, day) DO UPDATE SET agent = excluded.agent, kind = excluded.kind,
      bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files,
      collected_at = excluded.collected_at
    WHERE root_daily.collected_at <= excluded.collected_at
    RETURNING 1
  ), changes AS (
    SELECT agent, kind, bytes, 1 AS n FROM rows
    UNION ALL SELECT agent, kind, -bytes, -1 FROM prev
  ), day_deltas AS (
    SELECT agent, kind, sum(bytes)::bigint AS b, sum(n)::int AS n FROM changes GROUP BY agent, kind
    HAVING sum(bytes) <> 0 OR sum(n) <> 0
  ), deltas AS (
    -- The change is undone on the next report's day (cancelling out when that is the same day).
    SELECT day, agent, kind, sum(b)::bigint AS b, sum(n)::int AS n FROM (
      SELECT v_day AS day, agent, kind, b, n FROM day_deltas
      UNION ALL SELECT v_next_day, agent, kind, -b, -n FROM day_deltas WHERE v_next_day IS NOT NULL
    ) d GROUP BY day, agent, kind HAVING sum(b) <> 0 OR sum(n) <> 0
  ), fleet AS (
    INSERT INTO fleet_delta (day, agent, kind, shard, bytes, roots)
    SELECT day, agent, kind, p_shard, b, n FROM deltas ORDER BY day, agent, kind
    ON CONFLICT (day, agent, kind, shard) DO UPDATE SET bytes = fleet_delta.bytes + excluded.bytes,
      roots = fleet_delta.roots + excluded.roots
    RETURNING 1
  )
  INSERT INTO workspace_daily (workspace_id, day, bytes, volume_total_bytes, volume_free_bytes, volume_used_bytes,
    collected_at)
  VALUES (v_ws, v_day, v_total, (p->'volume'->>'totalBytes')::bigint, (p->'volume'->>'freeBytes')::bigint,
    volume_used(p->'volume'), v_at)
  ON CONFLICT (workspace_id, day) DO UPDATE SET bytes = excluded.bytes,
    volume_total_bytes = excluded.volume_total_bytes, volume_free_bytes = excluded.volume_free_bytes,
    volume_used_bytes = excluded.volume_used_bytes, collected_at = excluded.collected_at
  WHERE workspace_daily.collected_at <= excluded.collected_at;

  -- A day the 7-day change's kept bases cover (up to change_since + 1): they no longer hold until rewritten.
  UPDATE workspaces SET change_since = NULL WHERE id = v_ws AND v_day <= change_since + 1;
END
$$;
