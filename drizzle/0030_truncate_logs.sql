-- A truncate run empties one log file (lib/cleanup/truncate.ts): its root key, its path in the root and the size
-- the admin confirmed. Null for every other run.
ALTER TABLE "cleanup_runs" ADD COLUMN "target" jsonb;
