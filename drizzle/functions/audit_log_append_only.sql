-- The audit log's trigger (created in 0009): the log stays append-only for the app, with one exception, the
-- maintenance task's retention, which deletes entries older than the audit retention inside a transaction that
-- sets storage.expiring (see lib/db/maintenance-task.ts). Updates and truncation are refused always.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('storage.expiring', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
