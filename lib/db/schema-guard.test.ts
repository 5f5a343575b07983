// A database that a later release migrated is refused, on either database, before anything is changed.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchPostgres, openMigratedEmbedded } from "@/tests/support/db";
import { openEmbedded, openPostgres } from "./open";
import { SchemaNewerError } from "./schema-guard";

// A migration made after every one of this release's (drizzle records its journal time as created_at).
const FUTURE = Date.UTC(2099, 0, 1);
const FUTURE_ROW = `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-later-release', ${FUTURE})`;
// What an opener would change: the applied migrations, the function files' checksums, the tables.
const STATE = `select (select count(*) from drizzle.__drizzle_migrations)::int as migrations,
  (select string_agg(name || ':' || checksum, ',' order by name) from drizzle.function_checksums) as functions,
  (select count(*) from pg_tables where schemaname = 'public')::int as tables`;

function expectRefusal(err: unknown) {
  expect(err).toBeInstanceOf(SchemaNewerError);
  expect((err as Error).message).toMatch(/newer than this release \(coder-storage-dashboard \d+\.\d+\.\d+\)/);
  expect((err as Error).message).toMatch(/1 migration\(s\) this release does not know, the newest made 2099-01-01/);
  expect((err as Error).message).toMatch(/restoring the backup taken before the upgrade/);
}

describe("a schema newer than the release", () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it("is refused by the embedded database's opener", async () => {
    const migrated = await openMigratedEmbedded();
    const client = (migrated.db as unknown as { $client: { exec(s: string): Promise<unknown> } }).$client;
    await client.exec(FUTURE_ROW);
    const dump = await migrated.dumpDataDir!();
    await migrated.close();
    expectRefusal(await openEmbedded("memory://", { loadDataDir: dump }).catch((e: unknown) => e));
  });

  it("is refused by PostgreSQL's opener (as at start and by npm run db:migrate), which changes nothing", async () => {
    const scratch = await createScratchPostgres({ migrated: true });
    drops.push(scratch.drop);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(FUTURE_ROW);
      const before = (await client.query(STATE)).rows;
      expectRefusal(await openPostgres(scratch.url, 1).catch((e: unknown) => e));
      expect((await client.query(STATE)).rows).toEqual(before);
    } finally {
      await client.end();
    }
  });
});
