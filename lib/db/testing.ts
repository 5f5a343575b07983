import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe } from "vitest";
import { openEmbedded, openPostgres, type Database } from "./open";
import type { Who } from "./queries/audit";

/** Who makes the changes a test sets up, in their audit entries. */
export const TEST_WHO: Who = { actor: { type: "system", label: "test" } };

/** Server used by database tests; CI points it at the machine's Postgres. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Creates an empty database on the test server; the returned function drops it. */
export async function createScratchPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import("pg");
  const name = `storage_test_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `Database tests need PostgreSQL at ${TEST_POSTGRES_URL} (set TEST_DATABASE_URL): ${(err as Error).message}`,
    );
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: TEST_POSTGRES_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** `url`: the scratch database, for a second connection pool on it (PostgreSQL only). */
export type TestDatabase = { current: Database; url?: string };

/**
 * Runs a suite once on the embedded database and once on real Postgres, each freshly migrated.
 * The suite reads `t.current` inside its tests (it is set in beforeAll).
 */
export function describeEachDatabase(name: string, suite: (t: TestDatabase) => void) {
  for (const kind of ["embedded", "postgres"] as const) {
    describe(`${name} [${kind}]`, () => {
      const t = {} as TestDatabase;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        if (kind === "embedded") {
          t.current = await openEmbedded("memory://");
        } else {
          const scratch = await createScratchPostgres();
          drop = scratch.drop;
          t.url = scratch.url;
          t.current = await openPostgres(scratch.url, 8);
        }
      }, 60_000);
      afterAll(async () => {
        await t.current?.close();
        await drop?.();
      });
      suite(t);
    });
  }
}

/** Makes route handlers (which call getDb()) use `database`, as the app's one instance would be. */
export function serveRoutesFrom(database: Database | Promise<Database>) {
  (globalThis as unknown as { __storageDb?: Promise<Database> }).__storageDb = Promise.resolve(database);
}
