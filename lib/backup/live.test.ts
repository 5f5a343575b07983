import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchPostgres } from "@/tests/support/db";
import { scratchDir } from "@/tests/support/backup";
import { CLAUDE_LATEST, enroll, send, testNow, WS_A, WS_B } from "@/tests/support/reports";
import { openPostgres } from "@/lib/db/open";
import { backupTarget, restoreTarget } from "./run";

// A backup taken while reports are being ingested reads one snapshot: restored, every report has all its roots
// and the counts the manifest gives are the restored tables' own.

describe("a backup taken during ingest", () => {
  const tmp = scratchDir();
  const dbs: { url: string; drop: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
    tmp.remove();
  });

  it("restores to a state whose counts agree", async () => {
    const [source, target] = [await createScratchPostgres({ migrated: true }), await createScratchPostgres()];
    dbs.push(source, target);
    const database = await openPostgres(source.url, 4);
    const file = path.join(tmp.dir, "live.storage-backup");
    let manifestRows: Record<string, number> = {};
    try {
      for (const ws of [WS_A, WS_B]) await enroll(database.db, ws);
      let stop = false;
      let sent = 0;
      const ingest = (async () => {
        const start = testNow().getTime() - 5 * 86_400_000;
        while (!stop) {
          const at = new Date(start + sent * 60_000).toISOString();
          await send(database.db, sent % 2 ? WS_A : WS_B, at, [
            CLAUDE_LATEST,
            { ...CLAUDE_LATEST, key: "codex:data", agent: "codex" },
          ]);
          sent++;
        }
      })();
      // Some reports first, then the backup while more arrive.
      while (sent < 5) await new Promise((resolve) => setTimeout(resolve, 10));
      const { manifest } = await backupTarget({ kind: "postgres", url: source.url }, fs.createWriteStream(file));
      stop = true;
      await ingest;
      manifestRows = Object.fromEntries(manifest.tables.map((t) => [t.name, t.rows]));
      expect(manifestRows.reports).toBeGreaterThanOrEqual(5);
    } finally {
      await database.close();
    }
    await restoreTarget({ kind: "postgres", url: target.url }, file);
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const one = async (q: string) => Number((await client.query<{ n: string }>(q)).rows[0].n);
      expect(await one(`select count(*) as n from reports`)).toBe(manifestRows.reports);
      expect(await one(`select count(*) as n from root_usage`)).toBe(manifestRows.root_usage);
      expect(
        await one(`select count(*) as n from reports r where r.root_count <>
          (select count(*) from root_usage u where u.report_id = r.id and u.collected_at = r.collected_at)`),
      ).toBe(0);
      // The latest roots are the newest report's, of a report the backup holds.
      expect(
        await one(`select count(*) as n from root_latest l where not exists
          (select from reports r where r.id = l.report_id)`),
      ).toBe(0);
    } finally {
      await client.end();
    }
  }, 180_000);
});
