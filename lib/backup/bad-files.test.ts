import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "@/lib/db/open";
import { createScratchPostgres } from "@/tests/support/db";
import { postgresContents, rewriteBackup, scratchDir } from "@/tests/support/backup";
import { seedScenario, testNow } from "@/tests/support/reports";
import { BadBackupError } from "./read";
import { checkBackup, leftOutNotice, TargetNotEmptyError } from "./restore";
import { backupTarget, restoreTarget, type Target } from "./run";

// A file that is not a whole backup of a schema this release knows is refused, with what is wrong and where,
// before anything is written; a restore killed midway leaves the target as it was.

describe("backup files refused, targets untouched", () => {
  const tmp = scratchDir();
  const good = path.join(tmp.dir, "good.storage-backup");
  let target: Target & { kind: "postgres" };
  let drop: () => Promise<void>;
  let before: Awaited<ReturnType<typeof postgresContents>>;

  beforeAll(async () => {
    const scratch = await createScratchPostgres({ migrated: true });
    drop = scratch.drop;
    target = { kind: "postgres", url: scratch.url };
    const database = await openPostgres(scratch.url, 2);
    await seedScenario(database.db, testNow());
    await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Ada', 'ada@example.com')`);
    await database.db.execute(sql`insert into accounts (id, user_id, account_id, provider_id, password)
      values ('a1', 'u1', 'u1', 'credential', 'salt:hash')`);
    await database.db.execute(sql`insert into sessions (id, token, user_id, expires_at)
      values ('s1', 'tok', 'u1', now() + interval '1 day')`);
    await database.close();
    await backupTarget(target, fs.createWriteStream(good), { withSecrets: true });
    before = await postgresContents(target.url);
  }, 180_000);
  afterAll(async () => {
    await drop?.();
    tmp.remove();
  });

  const refused = async (name: string, bytes: Buffer | ((file: string) => void), message: RegExp) => {
    const file = path.join(tmp.dir, name);
    if (typeof bytes === "function") bytes(file);
    else fs.writeFileSync(file, bytes);
    await expect(checkBackup(file)).rejects.toThrow(message);
    await expect(restoreTarget(target, file, { force: true, safetyFile: `${file}.safety` })).rejects.toThrow(
      BadBackupError,
    );
    expect(fs.existsSync(`${file}.safety`), "refused before the safety backup").toBe(false);
    expect(await postgresContents(target.url)).toEqual(before);
  };

  it("accepts the whole file", async () => {
    const { manifest } = await checkBackup(good);
    expect(manifest.tables.find((t) => t.name === "reports")!.rows).toBe(7);
  });

  it("refuses a file that is not a backup", async () => {
    await refused("text", Buffer.from("hello, world\n"), /Not a backup file: it is not gzip-compressed/);
    await refused("other", gzipSync("name,size\n"), /Not a backup file: its first line/);
  }, 60_000);

  it("refuses a backup of a newer schema, naming its migration", async () => {
    await refused(
      "newer",
      (file) =>
        rewriteBackup(good, file, ([magic, header, ...rest]) => [
          magic,
          JSON.stringify({ ...JSON.parse(header), version: "9.0.0", migration: { tag: "0999_future", idx: 999 } }),
          ...rest,
        ]),
      /newer release \(9\.0\.0, migration 0999_future\)/,
    );
  }, 60_000);

  it("refuses a file cut short, and one with a flipped byte", async () => {
    const whole = fs.readFileSync(good);
    await refused("cut", whole.subarray(0, Math.floor(whole.length / 2)), /damaged or cut short at about byte/);
    const flipped = Buffer.from(whole);
    flipped[Math.floor(whole.length / 2)] ^= 0x01;
    await refused("flipped", flipped, /damaged/);
  }, 60_000);

  it("refuses a section whose rows changed, naming the table", async () => {
    await refused(
      "edited",
      (file) => rewriteBackup(good, file, (lines) => lines.map((l) => l.replace("alpha", "alphb"))),
      /Table workspaces's section is damaged/,
    );
    await refused(
      "row-gone",
      (file) => rewriteBackup(good, file, (lines) => lines.filter((l) => !l.includes("bravo"))),
      /Table workspaces holds 3 rows; the manifest says 4/,
    );
  }, 60_000);

  it("refuses a target that holds data unless forced, and then backs it up first", async () => {
    await expect(restoreTarget(target, good)).rejects.toThrow(TargetNotEmptyError);
    const safetyFile = path.join(tmp.dir, "safety.storage-backup");
    const result = await restoreTarget(target, good, { force: true, safetyFile });
    expect(result.replaced).toEqual({ workspaces: 4, reports: 7, users: 1 });
    expect((await checkBackup(safetyFile)).header.withSecrets).toBe(true);
    expect(await postgresContents(target.url)).toEqual(before);
  }, 60_000);

  it("leaves the secrets out unless asked, and says what stops working", async () => {
    const file = path.join(tmp.dir, "plain.storage-backup");
    const { header } = await backupTarget(target, fs.createWriteStream(file));
    expect(header.leftOut.map((l) => l.table)).toEqual([
      "settings",
      "workspace_tokens",
      "sessions",
      "accounts",
      "verifications",
      "api_keys",
      "cleanup_jobs",
      "cleanup_job_results",
    ]);
    const notice = leftOutNotice(header, false).join("\n");
    expect(notice).toMatch(/reporters' workspace tokens/);
    expect(notice).toMatch(/password sign-in/);
    expect(notice).toMatch(/enrollment key \(a new one is generated unless STORAGE_ENROLLMENT_KEY is set/);
    const fresh = await createScratchPostgres();
    try {
      await restoreTarget({ kind: "postgres", url: fresh.url }, file);
      const after = await postgresContents(fresh.url);
      expect(after.sessions).toEqual([]);
      expect(after.accounts).toEqual([expect.not.stringContaining("salt:hash")]);
      expect(after.settings.filter((r) => /auth_secret|enrollment_key/.test(r))).toEqual([]);
      expect(after.workspace_tokens.every((r) => r.includes("redacted:"))).toBe(true);
      expect(after.reports).toEqual(before.reports);
    } finally {
      await fresh.drop();
    }
  }, 60_000);

  it("leaves the target as it was when the restore is killed midway", async () => {
    const child = spawn(
      "node",
      ["--conditions=react-server", "--import", "tsx", "scripts/restore.ts", good, "--force"],
      {
        env: { ...process.env, DATABASE_URL: target.url },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Killed once its transaction has begun loading rows (COPY into the target), before it can commit.
    const { Client } = await import("pg");
    const watcher = new Client({ connectionString: target.url });
    await watcher.connect();
    try {
      for (;;) {
        const { rows } = await watcher.query(
          `select 1 from pg_stat_activity where datname = current_database() and query ilike 'copy %from stdin'`,
        );
        if (rows.length) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      await watcher.end();
    }
    child.kill("SIGKILL");
    await exited;
    expect(await postgresContents(target.url)).toEqual(before);
  }, 120_000);
});
