-- Stores a batch of reports (a jsonb array, each element a report as lib/db/queries/ingest.ts builds it) and
-- returns one outcome per element, by position: 'stored' (the workspace's newest), 'stored_late' (a newer one
-- was stored already), 'duplicate' (the id is stored for this workspace: nothing changes), 'conflict' (the id
-- belongs to another workspace), 'not_enrolled', or 'too_old' (before the raw history horizon that retention
-- has expired: its neighbours are gone, so it could not be placed without corrupting the roll-ups).
--
-- Reports newer than their workspace's newest are the common case and are applied together, set-based: a
-- workspace's first report in the batch replaces what root_latest holds, each later one the batch's report
-- before it. Late reports follow one at a time (ingest_late_report).
CREATE OR REPLACE FUNCTION ingest_reports(p_reports jsonb, p_shard smallint, p_forecast_days int)
RETURNS TABLE (pos int, outcome text) LANGUAGE plpgsql AS $$
DECLARE
  v_horizon timestamptz;
  v_out text[] := array_fill(NULL::text, ARRAY[jsonb_array_length(p_reports)]);
  v_seen jsonb := '{}';
  v_fast int[] := '{}';
  v_late int[] := '{}';
  v_touched int[] := '{}';
  v_pos int;
  r record;
BEGIN
  SELECT value::timestamptz INTO v_horizon FROM settings WHERE key = 'retention.raw_horizon';
  -- Reports of one workspace apply one at a time; rows are locked in id order so concurrent batches never deadlock.
  -- NO KEY UPDATE: the kept aggregates' refresher, whose rows reference the workspace (a key-share lock), does
  -- not hold a report up.
  PERFORM 1 FROM workspaces WHERE id IN (SELECT x->>'workspace' FROM jsonb_array_elements(p_reports) x) ORDER BY id
  FOR NO KEY UPDATE;
  -- A report id is stored once, whichever workspace sends it: senders of one id queue on a lock on it (the
  -- partitioned table cannot hold a unique index on the id alone).
  PERFORM pg_advisory_xact_lock(k) FROM (
    SELECT DISTINCT hashtextextended(x->>'id', 7244101) AS k FROM jsonb_array_elements(p_reports) x ORDER BY 1
  ) ids;

  FOR r IN
    SELECT h.o::int AS o, h.id, h.ws, h.at, w.id IS NOT NULL AS enrolled, w.last_collected_at, w.last_report_id,
      e.workspace_id AS owner
    FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o)
    CROSS JOIN LATERAL (SELECT t.o, (t.x->>'id')::uuid AS id, t.x->>'workspace' AS ws,
      (t.x->>'collectedAt')::timestamptz AS at) h
    LEFT JOIN workspaces w ON w.id = h.ws
    LEFT JOIN LATERAL (SELECT s.workspace_id FROM reports s WHERE s.id = h.id LIMIT 1) e ON true
    ORDER BY h.ws, h.at, h.id, h.o
  LOOP
    IF NOT r.enrolled THEN
      v_out[r.o] := 'not_enrolled';
      CONTINUE;
    END IF;
    v_touched := v_touched || r.o;
    IF r.owner IS NOT NULL OR v_seen ? r.id::text THEN
      v_out[r.o] := CASE WHEN coalesce(r.owner, v_seen->>r.id::text) = r.ws THEN 'duplicate' ELSE 'conflict' END;
    ELSIF r.at < v_horizon THEN
      v_out[r.o] := 'too_old';
    ELSE
      v_seen := v_seen || jsonb_build_object(r.id::text, r.ws);
      IF r.last_collected_at IS NULL OR (r.at, r.id) > (r.last_collected_at, r.last_report_id) THEN
        v_out[r.o] := 'stored';
        v_fast := v_fast || r.o;
      ELSE
        v_out[r.o] := 'stored_late';
        v_late := v_late || r.o;
      END IF;
    END IF;
  END LOOP;

  IF cardinality(v_fast) > 0 THEN
    PERFORM ingest_report_rows(p_reports, v_fast);

    WITH hdr AS (
      SELECT x->>'workspace' AS ws, (x->>'id')::uuid AS id, (x->>'collectedAt')::timestamptz AS at,
        ((x->>'collectedAt')::timestamptz AT TIME ZONE 'UTC')::date AS day, x->'roots' AS roots, x->'volume' AS volume,
        row_number() OVER (PARTITION BY x->>'workspace' ORDER BY (x->>'collectedAt')::timestamptz, (x->>'id')::uuid) AS seq
      FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o) WHERE o = ANY(v_fast)
    ), cur AS (
      SELECT h.ws, h.seq, h.day, h.at, h.id, y.* FROM hdr h CROSS JOIN LATERAL ingest_roots(h.roots) y
    ), last AS (
      SELECT DISTINCT ON (ws) ws, seq FROM hdr ORDER BY ws, seq DESC
    ), prev AS (
      -- The roots each report replaces.
      SELECT h.ws, h.seq, h.day, h.at, l.root_key, l.agent, l.kind, l.bytes
      FROM hdr h JOIN root_latest l ON l.workspace_id = h.ws WHERE h.seq = 1
      UNION ALL
      SELECT h.ws, h.seq, h.day, h.at, c.root_key, c.agent, c.kind, c.bytes
      FROM hdr h JOIN cur c ON c.ws = h.ws AND c.seq = h.seq - 1
    ), removed AS (
      SELECT p.* FROM prev p
      WHERE NOT EXISTS (SELECT 1 FROM cur c WHERE c.ws = p.ws AND c.seq = p.seq AND c.root_key = p.root_key)
    ), history AS (
      INSERT INTO root_usage (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
        apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest, leftovers, recipes)
      SELECT id, at, ws, root_key, kind, agent, path, bytes, apparent_bytes, files, dirs, oldest_mtime, newest_mtime,
        orphaned, unreadable, categories, ages, largest, leftovers, recipes FROM cur
      RETURNING 1
    ), latest AS (
      INSERT INTO root_latest (report_id, collected_at, workspace_id, root_key, kind, agent, path, bytes,
        apparent_bytes, files, dirs, oldest_mtime, newest_mtime, orphaned, unreadable, categories, ages, largest, leftovers, recipes)
      SELECT c.id, c.at, c.ws, c.root_key, c.kind, c.agent, c.path, c.bytes, c.apparent_bytes, c.files, c.dirs,
        c.oldest_mtime, c.newest_mtime, c.orphaned, c.unreadable, c.categories, c.ages, c.largest, c.leftovers, c.recipes
      FROM cur c JOIN last USING (ws, seq)
      ON CONFLICT (workspace_id, root_key) DO UPDATE SET report_id = excluded.report_id,
        collected_at = excluded.collected_at, kind = excluded.kind, agent = excluded.agent, path = excluded.path,
        bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files, dirs = excluded.dirs,
        oldest_mtime = excluded.oldest_mtime, newest_mtime = excluded.newest_mtime, orphaned = excluded.orphaned,
        unreadable = excluded.unreadable, categories = excluded.categories, ages = excluded.ages,
        largest = excluded.largest, leftovers = excluded.leftovers, recipes = excluded.recipes
      RETURNING 1
    ), unlatest AS (
      -- By key: prev's first rows are root_latest as it was, so nothing here scans root_latest (300,000 rows
      -- at 10,000 workspaces) to find the roots a workspace no longer has.
      -- EXCEPT, not NOT EXISTS: the planner cannot estimate these CTEs and may pick a nested loop over them.
      DELETE FROM root_latest l USING (
        SELECT ws, root_key FROM prev WHERE seq = 1
        EXCEPT SELECT c.ws, c.root_key FROM cur c JOIN last USING (ws, seq)
      ) gone
      WHERE l.workspace_id = gone.ws AND l.root_key = gone.root_key
      RETURNING 1
    ), daily AS (
      -- Each day's last value per root, removed roots as zero rows.
      INSERT INTO root_daily (workspace_id, root_key, day, agent, kind, bytes, apparent_bytes, files, collected_at)
      SELECT DISTINCT ON (ws, root_key, day) ws, root_key, day, agent, kind, bytes, apparent_bytes, files, at FROM (
        SELECT ws, root_key, day, agent, kind, bytes, apparent_bytes, files, at FROM cur
        UNION ALL SELECT ws, root_key, day, agent, kind, 0, 0, 0, at FROM removed
      ) v ORDER BY ws, root_key, day, at DESC
      ON CONFLICT (workspace_id, root_key, day) DO UPDATE SET agent = excluded.agent, kind = excluded.kind,
        bytes = excluded.bytes, apparent_bytes = excluded.apparent_bytes, files = excluded.files,
        collected_at = excluded.collected_at
      WHERE root_daily.collected_at <= excluded.collected_at
      RETURNING 1
    ), fleet AS (
      -- Sorted, so concurrent batches take the shared roll-up rows in one order and never deadlock.
      INSERT INTO fleet_delta (day, agent, kind, shard, bytes, roots)
      SELECT day, agent, kind, p_shard, sum(b)::bigint, sum(n)::int FROM (
        SELECT day, agent, kind, bytes AS b, 1 AS n FROM cur
        UNION ALL SELECT day, agent, kind, -bytes, -1 FROM prev
      ) d GROUP BY day, agent, kind HAVING sum(b) <> 0 OR sum(n) <> 0 ORDER BY day, agent, kind
      ON CONFLICT (day, agent, kind, shard) DO UPDATE SET bytes = fleet_delta.bytes + excluded.bytes,
        roots = fleet_delta.roots + excluded.roots
      RETURNING 1
    )
    INSERT INTO workspace_daily (workspace_id, day, bytes, volume_total_bytes, volume_free_bytes, volume_used_bytes,
      collected_at)
    SELECT DISTINCT ON (ws, day) ws, day,
      (SELECT coalesce(sum((e->>'bytes')::bigint), 0) FROM jsonb_array_elements(roots) e),
      (volume->>'totalBytes')::bigint, (volume->>'freeBytes')::bigint,
      volume_used(volume), at
    FROM hdr ORDER BY ws, day, at DESC
    ON CONFLICT (workspace_id, day) DO UPDATE SET bytes = excluded.bytes,
      volume_total_bytes = excluded.volume_total_bytes, volume_free_bytes = excluded.volume_free_bytes,
      volume_used_bytes = excluded.volume_used_bytes, collected_at = excluded.collected_at
    WHERE workspace_daily.collected_at <= excluded.collected_at;

    -- Each workspace's summary from its newest report, with a least-squares fit of the volume's used bytes over
    -- recent days (Prometheus' predict_linear) for the day it fills.
    WITH newest AS (
      SELECT DISTINCT ON (x->>'workspace') x->>'workspace' AS ws, (x->>'id')::uuid AS id,
        (x->>'collectedAt')::timestamptz AS at, ((x->>'collectedAt')::timestamptz AT TIME ZONE 'UTC')::date AS day,
        (x->>'receivedAt')::timestamptz AS received, x->>'name' AS name, x->>'owner' AS owner,
        x->>'template' AS template, x->>'agent' AS agent,
        (x->'volume'->>'totalBytes')::bigint AS vtotal, (x->'volume'->>'freeBytes')::bigint AS vfree,
        volume_used(x->'volume') AS vused,
        (x->'volume'->'inodes'->>'total')::bigint AS itotal, (x->'volume'->'inodes'->>'used')::bigint AS iused,
        (x->'volume'->'inodes'->>'free')::bigint AS ifree,
        (SELECT coalesce(sum((e->>'bytes')::bigint), 0) FROM jsonb_array_elements(x->'roots') e) AS total,
        jsonb_array_length(x->'roots') AS n, x->'agentRetention' AS retention,
        x->'home' AS home, x->'persistence' AS persistence,
        CASE WHEN x->>'writesFailedNoSpace' = 'true' THEN (x->>'collectedAt')::timestamptz END AS no_space_at
      FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o) WHERE o = ANY(v_fast)
      ORDER BY x->>'workspace', (x->>'collectedAt')::timestamptz DESC, (x->>'id')::uuid DESC
    )
    -- Once Coder's sync has described the workspace (coder_synced_at), its name, owner and template win over
    -- the report's: members see the workspaces Coder says they own, whatever a reporter claims.
    UPDATE workspaces w SET name = CASE WHEN w.coder_synced_at IS NULL THEN n.name ELSE w.name END,
      owner = CASE WHEN w.coder_synced_at IS NULL THEN n.owner ELSE w.owner END,
      template = CASE WHEN w.coder_synced_at IS NULL THEN n.template ELSE w.template END, agent_name = n.agent,
      last_seen_at = n.received, last_report_id = n.id, last_collected_at = n.at,
      volume_total_bytes = n.vtotal, volume_free_bytes = n.vfree, volume_used_bytes = n.vused,
      volume_inodes_total = n.itotal, volume_inodes_used = n.iused, volume_inodes_free = n.ifree,
      total_bytes = n.total, root_count = n.n, largest_agent = top.agent, largest_agent_bytes = top.b,
      agent_retention = n.retention,
      home = n.home, persistence = n.persistence, writes_failed_no_space_at = n.no_space_at,
      growth_bytes_per_day = fit.slope,
      -- The 7-day change's kept bases (lib/db/queries/change-7d.ts) cover the days up to change_since + 1: this
      -- batch wrote days on or after the previous newest report's, so they hold unless that day is among them.
      change_since = CASE WHEN (w.last_collected_at AT TIME ZONE 'UTC')::date > w.change_since + 1
        THEN w.change_since END,
      forecast_full_at = CASE WHEN fit.slope > 0 AND n.vfree / fit.slope < 3650
        THEN n.at + make_interval(secs => n.vfree / fit.slope * 86400) END
    FROM newest n
    LEFT JOIN LATERAL (
      SELECT agent, sum(bytes)::bigint AS b FROM root_latest WHERE workspace_id = n.ws
      GROUP BY agent ORDER BY 2 DESC, 1 LIMIT 1
    ) top ON true
    CROSS JOIN LATERAL (
      SELECT regr_slope(used, x) AS slope FROM (
        SELECT extract(epoch FROM collected_at) / 86400 AS x,
          coalesce(volume_used_bytes, volume_total_bytes - volume_free_bytes)::float8 AS used
        FROM (SELECT * FROM workspace_daily d WHERE d.workspace_id = n.ws AND d.day < n.day
          AND d.volume_total_bytes IS NOT NULL ORDER BY d.day DESC LIMIT p_forecast_days - 1) recent
        UNION ALL SELECT extract(epoch FROM n.at) / 86400, n.vused::float8 WHERE n.vtotal IS NOT NULL
      ) points
    ) fit
    WHERE w.id = n.ws;
  END IF;

  FOREACH v_pos IN ARRAY v_late LOOP
    PERFORM ingest_late_report(p_reports->(v_pos - 1), p_shard);
  END LOOP;

  -- The workspaces whose latest roots or history changed: their kept aggregates are rewritten after the
  -- acknowledgement (lib/ingest/kept-refresh.ts). A new version tells a refresher that read the old mark to keep
  -- this one; the first mark's time stays (how far behind the aggregates may be). Sorted, as the locks above.
  INSERT INTO kept_pending (workspace_id)
  SELECT DISTINCT x->>'workspace' FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o)
  WHERE o = ANY(v_fast || v_late) ORDER BY 1
  ON CONFLICT (workspace_id) DO UPDATE SET version = excluded.version;

  -- Workspaces whose newest report did not change were still seen.
  UPDATE workspaces w SET last_seen_at = s.received FROM (
    SELECT x->>'workspace' AS ws, max((x->>'receivedAt')::timestamptz) AS received
    FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o)
    WHERE o = ANY(v_touched) AND v_out[o] <> 'conflict' AND NOT (x->>'workspace') IN (
      SELECT y->>'workspace' FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS u(y, q) WHERE q = ANY(v_fast))
    GROUP BY 1
  ) s WHERE w.id = s.ws;

  RETURN QUERY SELECT i, v_out[i] FROM generate_subscripts(v_out, 1) AS i;
END
$$;
