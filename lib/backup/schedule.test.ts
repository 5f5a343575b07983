import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getLastBackup } from "@/lib/db/queries/backup";
import { getStorageSettings } from "@/lib/db/queries/storage";
import { backupRegistry } from "@/lib/metrics/backup";
import { scratchDir } from "@/tests/support/backup";
import { describeEachDatabase } from "@/tests/support/db";
import { seedScenario, testNow } from "@/tests/support/reports";
import { checkBackup } from "./restore";
import { runScheduledBackup } from "./schedule";

describeEachDatabase("the scheduled backup", (t) => {
  const tmp = scratchDir();
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
    process.env.STORAGE_BACKUP_DIR = tmp.dir;
    resetConfigForTests();
  });
  afterAll(() => {
    delete process.env.STORAGE_BACKUP_DIR;
    resetConfigForTests();
    tmp.remove();
  });

  it("writes one a day, keeps the newest, records the last success for the metric", async () => {
    const day = (n: number) => new Date(Date.UTC(2026, 5, n, 3));
    const opts = { dir: tmp.dir, keep: 2 };
    expect(await runScheduledBackup(t.current, { ...opts, now: day(1) })).toMatchObject({ ran: true });
    expect(await runScheduledBackup(t.current, { ...opts, now: new Date(Date.UTC(2026, 5, 1, 9)) })).toMatchObject({
      ran: false,
      reason: expect.stringMatching(/the last backup is from 2026-06-01T03/),
    });
    await runScheduledBackup(t.current, { ...opts, now: day(2) });
    const last = await runScheduledBackup(t.current, { ...opts, now: day(3) });
    const files = fs.readdirSync(tmp.dir).sort();
    expect(files).toEqual([
      "storage-backup-2026-06-02T03-00-00-000Z.storage-backup",
      "storage-backup-2026-06-03T03-00-00-000Z.storage-backup",
    ]);
    expect(await getLastBackup(t.current.db)).toMatchObject({ at: day(3).toISOString(), file: files[1] });
    expect(last).toMatchObject({ ran: true, bytes: fs.statSync(`${tmp.dir}/${files[1]}`).size });
    expect((await checkBackup(`${tmp.dir}/${files[1]}`)).header.withSecrets).toBe(true);
    expect((await getStorageSettings(t.current.db)).backup).toMatchObject({
      scheduled: true,
      keep: 7,
      last: { file: files[1] },
    });
    const metrics = await (await backupRegistry(t.current.db)).metrics();
    expect(metrics).toContain(`coder_storage_backup_last_success_timestamp_seconds ${day(3).getTime() / 1000}`);
  });
});
