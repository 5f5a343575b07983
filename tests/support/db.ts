import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { TEST_TEMPLATE_LOCK } from "@/lib/db/advisory-locks";
import { MIGRATIONS_FOLDER, openEmbedded, openPostgres, type Database } from "@/lib/db/open";
import type { Who } from "@/lib/db/queries/audit";

// Every database suite starts from a migrated database, made once per version of drizzle/ (its migrations and
// function files) and copied: PostgreSQL clones a template database (CREATE DATABASE … TEMPLATE), the embedded
// database loads a dumped data folder. Opening the copy still runs the migrator and the function files, which
// find nothing to do. Running every migration for each suite (and PGlite's initdb for each embedded one) was
// most of the database tests' time.

/** Who makes the changes a test sets up, in their audit entries. */
export const TEST_WHO: Who = { actor: { type: "system", label: "test" } };

/** Server used by database tests; CI points it at the machine's Postgres. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const TEMPLATE_PREFIX = "storage_template_";

/** A hash of every file under drizzle/: a template made from other migrations or functions is never used. */
function schemaVersion(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else hash.update(path.relative(MIGRATIONS_FOLDER, p)).update("\0").update(fs.readFileSync(p)).update("\0");
    }
  };
  walk(MIGRATIONS_FOLDER);
  return hash.digest("hex").slice(0, 16);
}

async function adminClient() {
  const { Client } = await import("pg");
  const admin = new Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `Database tests need PostgreSQL at ${TEST_POSTGRES_URL} (set TEST_DATABASE_URL): ${(err as Error).message}`,
    );
  }
  return admin;
}

const urlOf = (name: string) => {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * The migrated template database of this version of drizzle/, built if missing: one worker builds it under a
 * lock while the others wait, under a temporary name renamed when done (a build cut short is never a template).
 * Templates of other versions are dropped when not in use. `clone` runs under the same lock, so that another
 * checkout on the same server cannot drop the template between its check and the clone.
 */
async function withMigratedTemplate(clone: (admin: pg.Client, template: string) => Promise<void>): Promise<void> {
  const name = TEMPLATE_PREFIX + schemaVersion();
  const admin = await adminClient();
  try {
    await admin.query("select pg_advisory_lock($1)", [TEST_TEMPLATE_LOCK]);
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [
      `${TEMPLATE_PREFIX}%`,
    ]);
    if (!rows.some((r) => r.datname === name)) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const db = await openPostgres(urlOf(building), 1);
      await db.close();
      await admin.query(`alter database ${building} rename to ${name}`);
    }
    for (const { datname } of rows.filter((r) => r.datname !== name))
      await admin.query(`drop database if exists ${datname}`).catch(() => {});
    await clone(admin, name);
  } finally {
    await admin.query("select pg_advisory_unlock($1)", [TEST_TEMPLATE_LOCK]).catch(() => {});
    await admin.end();
  }
}

async function createDatabase(admin: pg.Client, name: string, template: string | null) {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
      return;
    } catch (err) {
      // A template that another session is still connected to: "source database is being accessed by other users".
      if ((err as { code?: string }).code !== "55006" || attempt === 20) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/**
 * Creates a database on the test server, empty or (`migrated`) a copy of the migrated template; the returned
 * function drops it.
 */
export async function createScratchPostgres(
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `storage_test_${randomBytes(6).toString("hex")}`;
  if (opts.migrated) {
    await withMigratedTemplate((admin, template) => createDatabase(admin, name, template));
  } else {
    const admin = await adminClient();
    try {
      await createDatabase(admin, name, null);
    } finally {
      await admin.end();
    }
  }
  return {
    url: urlOf(name),
    async drop() {
      const c = await adminClient();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The embedded database migrated, in memory, from a dump of a migrated data folder kept in .test-data/ (one per
 * version of drizzle/, written once by whichever suite needs it first; a rename makes it appear whole).
 */
export async function openMigratedEmbedded(): Promise<Database> {
  const file = path.join(process.cwd(), ".test-data", `pglite-migrated-${schemaVersion()}.tar`);
  if (!fs.existsSync(file)) {
    const fresh = await openEmbedded("memory://");
    const dump = Buffer.from(await (await fresh.dumpDataDir!()).arrayBuffer());
    await fresh.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    fs.writeFileSync(partial, dump);
    fs.renameSync(partial, file);
  }
  return openEmbedded("memory://", { loadDataDir: new Blob([fs.readFileSync(file)]) });
}

/** `url`: the scratch database, for a second connection pool on it (PostgreSQL only). */
export type TestDatabase = { current: Database; url?: string };

/**
 * Runs a suite once on the embedded database and once on real Postgres, each a fresh copy of a migrated one.
 * The suite reads `t.current` inside its tests (it is set in beforeAll).
 */
export function describeEachDatabase(name: string, suite: (t: TestDatabase) => void) {
  for (const kind of ["embedded", "postgres"] as const) {
    describe(`${name} [${kind}]`, () => {
      const t = {} as TestDatabase;
      let drop: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        if (kind === "embedded") {
          t.current = await openMigratedEmbedded();
        } else {
          const scratch = await createScratchPostgres({ migrated: true });
          drop = scratch.drop;
          t.url = scratch.url;
          t.current = await openPostgres(scratch.url, 8);
        }
      }, 180_000); // the first suite of a drizzle/ version also builds the template
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
