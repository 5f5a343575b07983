-- The roots of one report (its `roots` JSON array) as rows, in the column order of root_usage and root_latest
-- after their first three columns (report, time, workspace), with the defaults of the fields a reporter may leave
-- out. The one place that names the root fields ingest stores; a single SELECT, so the planner inlines it into
-- the calling statement.
CREATE OR REPLACE FUNCTION ingest_roots(p_roots jsonb)
RETURNS TABLE (root_key text, kind text, agent text, path text, bytes bigint, apparent_bytes bigint, files bigint,
  dirs bigint, oldest_mtime timestamptz, newest_mtime timestamptz, orphaned boolean, unreadable integer,
  categories jsonb, ages jsonb, largest jsonb, leftovers jsonb, recipes jsonb)
LANGUAGE sql STABLE AS $$
  SELECT x.key, x.kind, x.agent, x.path, x.bytes, x."apparentBytes", x.files, x.dirs, x."oldestMtime",
    x."newestMtime", coalesce(x.orphaned, false), coalesce(x.unreadable, 0), coalesce(x.categories, '{}'::jsonb),
    coalesce(x.ages, '{}'::jsonb), coalesce(x.largest, '[]'::jsonb), coalesce(x.leftovers, '[]'::jsonb),
    coalesce(x.recipes, '{}'::jsonb)
  FROM jsonb_to_recordset(p_roots) AS x(key text, kind text, agent text, path text, bytes bigint,
    "apparentBytes" bigint, files bigint, dirs bigint, "oldestMtime" timestamptz, "newestMtime" timestamptz,
    orphaned boolean, unreadable integer, categories jsonb, ages jsonb, largest jsonb, leftovers jsonb, recipes jsonb)
$$;
