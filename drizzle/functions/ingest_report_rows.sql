-- Inserts the reports at positions p_positions (1-based) of the batch p_reports into reports: the one place that
-- names the report's own fields. Both ingest paths call it (ingest_reports for the batch's newest reports,
-- ingest_late_report for one late report).
CREATE OR REPLACE FUNCTION ingest_report_rows(p_reports jsonb, p_positions int[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO reports (id, workspace_id, collected_at, received_at, reporter_version, fell_back_from, scan_ms,
    total_bytes, root_count,
    volume_total_bytes, volume_free_bytes, volume_used_bytes, volume_inodes_total, volume_inodes_used,
    volume_inodes_free, errors, agent_retention, home, persistence)
  SELECT (x->>'id')::uuid, x->>'workspace', (x->>'collectedAt')::timestamptz, (x->>'receivedAt')::timestamptz,
    x->>'reporterVersion', x->>'fellBackFrom', (x->>'scanMs')::real,
    (SELECT coalesce(sum((e->>'bytes')::bigint), 0) FROM jsonb_array_elements(x->'roots') e), jsonb_array_length(x->'roots'),
    (x->'volume'->>'totalBytes')::bigint, (x->'volume'->>'freeBytes')::bigint, (x->'volume'->>'usedBytes')::bigint,
    (x->'volume'->'inodes'->>'total')::bigint, (x->'volume'->'inodes'->>'used')::bigint,
    (x->'volume'->'inodes'->>'free')::bigint, coalesce(x->'errors', '[]'::jsonb), x->'agentRetention',
    x->'home', x->'persistence'
  FROM jsonb_array_elements(p_reports) WITH ORDINALITY AS t(x, o) WHERE o = ANY(p_positions);
END
$$;
