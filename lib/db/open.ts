import "server-only";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import lockfile from "proper-lockfile";
import { config } from "@/lib/config";
import { afterMigrate } from "./after-migrate";
import { MIGRATION_LOCK } from "./advisory-locks";
import { runBeforeClose } from "./before-close";
import { everyWrites, setWriters } from "./maintenance";
import { refuseNewerSchema } from "./schema-guard";
import * as schema from "./schema";
import type { Db } from "./types";

export type Database = {
  db: Db;
  kind: "embedded" | "postgres";
  /** Where the data lives, for logs and the health check (no credentials). */
  location: string;
  /**
   * Runs `fn` on one connection held throughout (session-level advisory locks, a sequence of transactions).
   * The embedded database has one connection: `fn` gets it.
   */
  session<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Embedded only: the data folder as a tarball, which `openEmbedded`'s `loadDataDir` opens again. */
  dumpDataDir?: () => Promise<Blob>;
};

// Read at start from the working folder (the image copies drizzle/ beside server.js): keep the build's file
// tracing from taking the whole project into .next/standalone.
export const MIGRATIONS_FOLDER = path.join(/*turbopackIgnore: true*/ process.cwd(), "drizzle");
const MAINTAIN_EVERY_WRITES = 250;
/** Tables whose rows ingest updates in place (the rest only grow). */
const UPDATED_TABLES = ["root_latest", "workspaces", "fleet_delta", "workspace_daily", "root_daily"];
const GROWN_TABLES = `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r'
    and pg_relation_size(c.oid) / current_setting('block_size')::int > greatest(c.relpages * 1.2, c.relpages + 8)`;

export class DataFolderLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database folder ${dir} is in use by another process (a second "npm run dev", "start" or "demo"?). ` +
        `Stop that process, or point STORAGE_DATA_DIR at another folder. (After a crash the lock goes stale and ` +
        `is released within 15 seconds.)`,
    );
    this.name = "DataFolderLockedError";
  }
}

/**
 * Takes the lock on the embedded database's folder `dir` (made if missing) and returns its release. PGlite has no
 * lock of its own and a second process corrupts the folder: refuse instead.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dir, { recursive: true });
  try {
    return await lockfile.lock(dir, {
      lockfilePath: `${dir}.lock`,
      stale: 15_000,
      update: 5_000,
      retries: { retries: 2, minTimeout: 500, maxTimeout: 2_000 },
      onCompromised: (err) => console.error(`[db] lost the lock on ${dir}: ${err.message}`),
    });
  } catch (err) {
    if ((err as { code?: string }).code === "ELOCKED") throw new DataFolderLockedError(dir);
    throw err;
  }
}

/**
 * Opens the embedded database in `dir` (or in memory for "memory://"), holding a lock on the folder. In memory,
 * `loadDataDir` starts from a dumped data folder instead of an empty one (tests: a migrated one, which skips
 * initdb and the migrations).
 */
export async function openEmbedded(dir: string, opts: { loadDataDir?: Blob } = {}): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const release = dir === "memory://" ? undefined : await lockDataFolder(dir);
  let opened: InstanceType<typeof PGlite> | undefined;
  try {
    const client = dir === "memory://" ? new PGlite({ loadDataDir: opts.loadDataDir }) : new PGlite(dir);
    opened = client;
    await client.waitReady;
    const db = drizzle({ client, schema }) as unknown as Db;
    await refuseNewerSchema(db, MIGRATIONS_FOLDER);
    await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    await afterMigrate(db);
    // PGlite runs no autovacuum. Without it the tables that every report updates fill with dead rows (the
    // latest table's index held 23,351 entries for 97 live rows after 14,000 reports) and the planner keeps
    // plans made for empty tables: ingest slowed from 9 to 90 ms a report and the agent page by 4x as
    // history grew. So do autovacuum's work here: at open, then every few hundred writes, vacuum the updated
    // tables and analyze the append-only ones that grew by a fifth. Counting writes, not a timer: PGlite
    // answers without yielding to the event loop, so timers never fire during a burst of writes.
    const maintain = async () => {
      try {
        await client.exec(`vacuum (analyze) ${UPDATED_TABLES.join(", ")}`);
        const grown = await client.query<{ name: string }>(GROWN_TABLES);
        for (const { name } of grown.rows) await client.exec(`analyze "${name}"`);
      } catch (err) {
        console.error(`[db] maintenance failed: ${(err as Error).message}`);
      }
    };
    await client.exec("analyze");
    everyWrites(db, MAINTAIN_EVERY_WRITES, maintain);
    setWriters(db, 1);
    return {
      db,
      kind: "embedded",
      location: dir,
      session: (fn) => fn(db),
      dumpDataDir: () => client.dumpDataDir("none"),
      async close() {
        await runBeforeClose(db);
        await client.close();
        await release?.();
      },
    };
  } catch (err) {
    // Refused (a newer schema) or failed: the folder is closed before its lock is released.
    await opened?.close().catch(() => {});
    await release?.();
    throw err;
  }
}

/**
 * Settings of every connection to PostgreSQL, the app's and the benchmarks' alike. JIT off: the fleet pages'
 * queries are large and estimated expensive, so PostgreSQL compiled them with LLVM at every call; at 10,000
 * workspaces that took 2.1 s of the findings page's 3.4 s (EXPLAIN's "JIT: Timing"), for queries that run in
 * about a second without it. Nothing here is long-running analytics that compilation would pay off for.
 */
export const CONNECTION_OPTIONS = "-c jit=off";
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Opens a node-postgres pool against `url` and applies pending migrations, then changed function files, then
 * rewrites the kept aggregates this code computes otherwise, under an advisory lock.
 */
export async function openPostgres(url: string, poolSize = config().database.poolSize): Promise<Database> {
  const { Pool } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // Bounded waits, so an outage answers 503 instead of hanging: a connection (or a free one from the pool) within
  // 10 s, a statement within DATABASE_STATEMENT_TIMEOUT seconds (30; 0 lifts it). Maintenance and migrations run
  // on a session without it (their statements may rightly take longer).
  const { statementTimeoutMs } = config().database;
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    options: CONNECTION_OPTIONS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: statementTimeoutMs > 0 ? statementTimeoutMs : undefined,
    keepAlive: true,
  });
  pool.on("error", (err) => console.error(`[db] idle client error: ${err.message}`));
  try {
    const conn = await pool.connect();
    try {
      await conn.query("set statement_timeout = 0");
      await conn.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      const locked = drizzle({ client: conn, schema });
      await refuseNewerSchema(locked as unknown as Db, MIGRATIONS_FOLDER);
      await migrate(locked, { migrationsFolder: MIGRATIONS_FOLDER });
      await afterMigrate(locked as unknown as Db);
    } finally {
      await conn.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      await conn.query("reset statement_timeout").catch(() => {});
      conn.release();
    }
  } catch (err) {
    await pool.end();
    throw err;
  }
  const db = drizzle({ client: pool, schema }) as unknown as Db;
  const u = new URL(url);
  return {
    db,
    kind: "postgres",
    location: `${u.hostname}:${u.port || 5432}${u.pathname}`,
    async session(fn) {
      const conn = await pool.connect();
      try {
        await conn.query("set statement_timeout = 0");
        return await fn(drizzle({ client: conn, schema }) as unknown as Db);
      } finally {
        // A connection that failed is dropped from the pool rather than returned with its settings unknown.
        await conn.query("reset statement_timeout").then(
          () => conn.release(),
          (err: Error) => conn.release(err),
        );
      }
    },
    async close() {
      await runBeforeClose(db);
      await pool.end();
    },
  };
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
