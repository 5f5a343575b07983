-- Each root's cleanup recipe usage (units and bytes by age step) is stored with the root, so a cleanup
-- preview is read from the latest table without reaching into any workspace. Same signature as 0007.
CREATE OR REPLACE FUNCTION ingest_report(
  p_id uuid, p_workspace text, p_collected_at timestamptz, p_received_at timestamptz,
  p_reporter_version text, p_scan_ms real, p_volume jsonb, p_errors jsonb,
  p_roots jsonb, p_name text, p_owner text, p_template text, p_agent text, p_shard smallint, p_forecast_days int
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
  v_last_id uuid;
  v_owner text;
  v_total bigint;
  v_count int;
  v_newest boolean;
  v_day date := (p_collected_at AT TIME ZONE 'UTC')::date;
  v_volume_total bigint := (p_volume->>'totalBytes')::bigint;
  v_volume_free bigint := (p_volume->>'freeBytes')::bigint;
  -- Reporters before 0.2 sent no Used: Size − Avail then, as they always showed it.
  v_volume_used bigint := coalesce((p_volume->>'usedBytes')::bigint,
    (p_volume->>'totalBytes')::bigint - (p_volume->>'freeBytes')::bigint);
  v_inodes_total bigint := (p_volume->'inodes'->>'total')::bigint;
  v_inodes_used bigint := (p_volume->'inodes'->>'used')::bigint;
  v_inodes_free bigint := (p_volume->'inodes'->>'free')::bigint;
BEGIN
  -- Reports of one workspace apply one at a time.
  SELECT last_collected_at, last_report_id INTO v_last, v_last_id FROM workspaces WHERE id = p_workspace FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 'not_enrolled';
  END IF;

  SELECT coalesce(sum((r->>'bytes')::bigint), 0), count(*) INTO v_total, v_count FROM jsonb_array_elements(p_roots) r;
  INSERT INTO reports (id, workspace_id, collected_at, received_at, reporter_version, scan_ms, total_bytes, root_count,
    volume_total_bytes, volume_free_bytes, volume_used_bytes, volume_inodes_total, volume_inodes_used,
    volume_inodes_free, errors)
  VALUES (p_id, p_workspace, p_collected_at, p_received_at, p_reporter_version, p_scan_ms, v_total, v_count,
    v_volume_total, v_volume_free, (p_volume->>'usedBytes')::bigint, v_inodes_total, v_inodes_used, v_inodes_free,
    p_errors)
  ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    SELECT workspace_id INTO v_owner FROM reports WHERE id = p_id;
    IF v_owner IS DISTINCT FROM p_workspace THEN
      RETURN 'conflict';
    END IF;
    UPDATE workspaces SET last_seen_at = p_received_at WHERE id = p_workspace;
    RETURN 'duplicate';
  END IF;

  v_newest := v_last IS NULL OR (p_collected_at, p_id) > (v_last, v_last_id);

  WITH rows AS (
    SELECT p_id AS report_id, p_collected_at AS collected_at, p_workspace AS workspace_id,
      x.key AS root_key, x.kind, x.agent, x.path, x.bytes, x."apparentBytes" AS apparent_bytes, x.files, x.dirs,
      x."oldestMtime" AS oldest_mtime, x."newestMtime" AS newest_mtime, coalesce(x.orphaned, false) AS orphaned,
      coalesce(x.unreadable, 0) AS unreadable, coalesce(x.categories, '{}'::jsonb) AS categories,
      coalesce(x.ages, '{}'::jsonb) AS ages, coalesce(x.largest, '[]'::jsonb) AS largest,
      coalesce(x.leftovers, '[]'::jsonb) AS leftovers, coalesce(x.recipes, '{}'::jsonb) AS recipes
    FROM jsonb_to_recordset(p_roots) AS x(key text, kind text, agent text, path text, bytes bigint,
      "apparentBytes" bigint, files bigint, dirs bigint, "oldestMtime" timestamptz, "newestMtime" timestamptz,
      orphaned boolean, unreadable integer, categories jsonb, ages jsonb, largest jsonb, leftovers jsonb, recipes jsonb)
  ), prev_report AS (
    SELECT id FROM reports WHERE workspace_id = p_workspace AND (collected_at, id) < (p_collected_at, p_id)
    ORDER BY collected_at DESC, id DESC LIMIT 1
  ), next_report AS (
    SELECT (collected_at AT TIME ZONE 'UTC')::date AS day FROM reports
    WHERE workspace_id = p_workspace AND (collected_at, id) > (p_collected_at, p_id)
    ORDER BY collected_at ASC, id ASC LIMIT 1
  ), prev AS (
    SELECT u.root_key, u.agent, u.kind, u.bytes FROM root_usage u JOIN prev_report p ON u.report_id = p.id
  ), removed AS (
    SELECT * FROM prev p WHERE NOT EXISTS (SELECT 1 FROM rows r WHERE r.root_key = p.root_key)
  ), history AS (
    INSERT INTO root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest, leftovers, recipes)
    SELECT * FROM rows RETURNING 1
  ), latest AS (
    INSERT INTO root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
      apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest, leftovers, recipes)
    SELECT * FROM rows WHERE v_newest
    ON CONFLICT (workspace_id, root_key) DO UPDATE SET report_id = excluded.report_id,
      collected_at = excluded.collected_at, kind = excluded.kind, agent = excluded.agent, path = excluded.path,
      bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files, dirs = excluded.dirs,
      oldest_mtime = excluded.oldest_mtime, newest_mtime = excluded.newest_mtime, orphaned = excluded.orphaned,
      unreadable = excluded.unreadable, categories = excluded.categories, ages = excluded.ages,
      largest = excluded.largest, leftovers = excluded.leftovers, recipes = excluded.recipes
    RETURNING 1
  ), unlatest AS (
    DELETE FROM root_latest WHERE v_newest AND workspace_id = p_workspace
      AND root_key IN (SELECT root_key FROM removed)
    RETURNING 1
  ), daily AS (
    INSERT INTO root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
    SELECT * FROM (
      SELECT workspace_id, root_key, v_day AS day, agent, kind, bytes, apparent_bytes, files, collected_at FROM rows
      UNION ALL SELECT p_workspace, root_key, v_day, agent, kind, 0, 0, 0, p_collected_at FROM removed
    ) day_values
    -- A later report of the same day already set the day's values, including the roots it no longer had.
    WHERE NOT EXISTS (SELECT 1 FROM next_report WHERE day = v_day)
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
    -- A late report's change is undone on the next report's day (cancelling out when that is the same day).
    SELECT day, agent, kind, sum(b)::bigint AS b, sum(n)::int AS n FROM (
      SELECT v_day AS day, agent, kind, b, n FROM day_deltas
      UNION ALL SELECT nr.day, agent, kind, -b, -n FROM day_deltas, next_report nr
    ) d GROUP BY day, agent, kind HAVING sum(b) <> 0 OR sum(n) <> 0
  ), fleet AS (
    -- Sorted, so concurrent ingests take the shared roll-up rows in one order and never deadlock.
    INSERT INTO fleet_delta (day, agent, kind, shard, bytes, roots)
    SELECT day, agent, kind, p_shard, b, n FROM deltas ORDER BY day, agent, kind
    ON CONFLICT (day, agent, kind, shard) DO UPDATE SET bytes = fleet_delta.bytes + excluded.bytes,
      roots = fleet_delta.roots + excluded.roots
    RETURNING 1
  )
  INSERT INTO workspace_daily (workspace_id, day, bytes, volume_total_bytes, volume_free_bytes, volume_used_bytes,
    collected_at)
  VALUES (p_workspace, v_day, v_total, v_volume_total, v_volume_free, v_volume_used, p_collected_at)
  ON CONFLICT (workspace_id, day) DO UPDATE SET bytes = excluded.bytes,
    volume_total_bytes = excluded.volume_total_bytes, volume_free_bytes = excluded.volume_free_bytes,
    volume_used_bytes = excluded.volume_used_bytes,
    collected_at = excluded.collected_at
  WHERE workspace_daily.collected_at <= excluded.collected_at;

  IF NOT v_newest THEN
    UPDATE workspaces SET last_seen_at = p_received_at WHERE id = p_workspace;
    RETURN 'stored_late';
  END IF;

  -- The workspace's summary, with a least-squares fit of the volume's used bytes over recent days
  -- (Prometheus' predict_linear) for the day it fills.
  WITH fit AS (
    SELECT regr_slope(used, x) AS slope FROM (
      SELECT extract(epoch FROM collected_at) / 86400 AS x,
        coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes)::float8 AS used
      FROM (SELECT * FROM workspace_daily WHERE workspace_id = p_workspace AND day < v_day
        AND volume_total_bytes IS NOT NULL ORDER BY day DESC LIMIT p_forecast_days - 1) recent
      UNION ALL SELECT extract(epoch FROM p_collected_at) / 86400, v_volume_used::float8
      WHERE v_volume_total IS NOT NULL
    ) points
  ), top_agent AS (
    SELECT agent, sum(bytes)::bigint AS b FROM root_latest WHERE workspace_id = p_workspace
    GROUP BY agent ORDER BY 2 DESC, 1 LIMIT 1
  )
  UPDATE workspaces SET name = p_name, owner = p_owner, template = p_template, agent_name = p_agent,
    last_seen_at = p_received_at, last_report_id = p_id, last_collected_at = p_collected_at,
    volume_total_bytes = v_volume_total, volume_free_bytes = v_volume_free, volume_used_bytes = v_volume_used,
    volume_inodes_total = v_inodes_total, volume_inodes_used = v_inodes_used, volume_inodes_free = v_inodes_free,
    total_bytes = v_total, root_count = v_count,
    largest_agent = (SELECT agent FROM top_agent), largest_agent_bytes = (SELECT b FROM top_agent),
    growth_bytes_per_day = (SELECT slope FROM fit),
    forecast_full_at = (SELECT CASE WHEN slope > 0 AND v_volume_free / slope < 3650
      THEN p_collected_at + make_interval(secs => v_volume_free / slope * 86400) END FROM fit)
  WHERE id = p_workspace;
  RETURN 'stored';
END
$$;
