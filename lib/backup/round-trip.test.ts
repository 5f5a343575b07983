import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { openEmbedded } from "@/lib/db/open";
import { createScratchPostgres } from "@/tests/support/db";
import { folderContents, postgresContents, scratchDir } from "@/tests/support/backup";
import { pgConn } from "./connection";
import { migrateTo } from "./migrate";
import { backupTarget, restoreTarget, type Target } from "./run";
import { readJournal } from "./schema-info";

// The move both ways (docs/backup.md): an embedded database backed up, restored into a fresh PostgreSQL database,
// backed up from there and restored into a new embedded folder; every backed-up table's rows and every sequence
// equal at each step.

describe("backup and restore: embedded → PostgreSQL → embedded", () => {
  const tmp = scratchDir();
  const source: Target = { kind: "embedded", dir: path.join(tmp.dir, "source") };
  let postgres: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    const database = await openEmbedded(source.dir);
    await seedDemoFleet(database.db, { workspaces: 6, days: 4, now: new Date("2026-06-10T12:00:00Z"), seed: 7 });
    await database.db.execute(sql`insert into users (id, name, email) values ('u1', 'Ada', 'ada@example.com')`);
    await database.db.execute(sql`insert into accounts (id, user_id, account_id, provider_id, password)
      values ('a1', 'u1', 'u1', 'credential', 'salt:hash')`);
    await database.db.execute(sql`insert into sessions (id, token, user_id, expires_at)
      values ('s1', 'tok', 'u1', now() + interval '1 day')`);
    // a reporter bundle: binary bytes (bytea) through COPY's text both ways
    await database.db.execute(sql`insert into reporter_releases (version, sha256, size, bytes)
      values ('0.1.0', 'x', 4, '\\x00ff5c0a'::bytea)`);
    await database.close();
    postgres = await createScratchPostgres();
  }, 180_000);
  afterAll(async () => {
    await postgres?.drop();
    tmp.remove();
  });

  it("restores every table's rows and the sequences, both ways", async () => {
    const first = path.join(tmp.dir, "first.storage-backup");
    const summary = await backupTarget(source, fs.createWriteStream(first), { withSecrets: true });
    expect(summary.manifest.tables.find((t) => t.name === "reports")!.rows).toBeGreaterThan(0);
    expect(summary.header.partitionDays.length).toBeGreaterThan(0);
    const before = await folderContents(source.dir);

    await restoreTarget({ kind: "postgres", url: postgres.url }, first);
    expect(await postgresContents(postgres.url)).toEqual(before);

    const second = path.join(tmp.dir, "second.storage-backup");
    await backupTarget({ kind: "postgres", url: postgres.url }, fs.createWriteStream(second), { withSecrets: true });
    const back = path.join(tmp.dir, "back");
    await restoreTarget({ kind: "embedded", dir: back }, second);
    expect(await folderContents(back)).toEqual(before);
  }, 300_000);

  it("leaves the embedded target as it was when the restore is killed midway", async () => {
    const before = await folderContents(source.dir);
    const file = path.join(tmp.dir, "first.storage-backup");
    const child = spawn(
      "node",
      ["--conditions=react-server", "--import", "tsx", "scripts/restore.ts", file, "--force"],
      {
        env: { ...process.env, DATABASE_URL: "", STORAGE_DATA_DIR: source.dir },
        stdio: "ignore",
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Killed while it loads the new data folder beside the target.
    while (!fs.existsSync(path.join(`${source.dir}.restoring`, "PG_VERSION")))
      await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill("SIGKILL");
    await exited;
    expect(await folderContents(source.dir)).toEqual(before);
  }, 120_000);
});

describe("a backup of an older schema", () => {
  const dbs: { url: string; drop: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const d of dbs) await d.drop();
  });

  it("is restored at its migration, then brought up to this release's", async () => {
    const [old, target] = [await createScratchPostgres(), await createScratchPostgres()];
    dbs.push(old, target);
    const journal = readJournal();
    const client = new pg.Client({ connectionString: old.url });
    await client.connect();
    try {
      await migrateTo(pgConn(client), journal.length - 4);
      await client.query(`insert into users (id, name, email) values ('u1', 'Ada', 'ada@example.com')`);
    } finally {
      await client.end();
    }
    const tmp = scratchDir();
    try {
      const file = path.join(tmp.dir, "old.storage-backup");
      const { header } = await backupTarget({ kind: "postgres", url: old.url }, fs.createWriteStream(file));
      expect(header.migration).toEqual({ tag: journal.at(-4)!.tag, idx: journal.length - 4 });
      await restoreTarget({ kind: "postgres", url: target.url }, file);
      const after = await postgresContents(target.url);
      expect(after.users).toEqual([expect.stringContaining("ada@example.com")]);
      // The newer migrations' tables are there, and the app opens it without a migration left to apply.
      expect(after.owner_contacts).toEqual([]);
      const check = new pg.Client({ connectionString: target.url });
      await check.connect();
      const { rows } = await check.query(`select count(*)::int as n from drizzle.__drizzle_migrations`);
      await check.end();
      expect(rows[0].n).toBe(journal.length);
    } finally {
      tmp.remove();
    }
  }, 120_000);
});
