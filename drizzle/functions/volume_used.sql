-- A volume's used bytes as df shows them: reporters before 0.2 sent Size and Avail only, and Used is then taken as
-- Size - Avail. Read by ingest for the day roll-up and the workspace's summary. A plain SQL expression, so the
-- planner inlines it into the calling statement.
CREATE OR REPLACE FUNCTION volume_used(p_volume jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce((p_volume->>'usedBytes')::bigint,
    (p_volume->>'totalBytes')::bigint - (p_volume->>'freeBytes')::bigint)
$$;
