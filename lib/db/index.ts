import "server-only";
import path from "node:path";
import { config } from "@/lib/config";
import { openEmbedded, openPostgres, type Database } from "./open";

export type { Db } from "./types";

/** The embedded database's folder: STORAGE_DATA_DIR, or .data/pglite inside the project. */
export function dataDir(): string {
  // A runtime folder, not a source: keep the build's file tracing out of it.
  return path.resolve(
    /*turbopackIgnore: true*/ config().database.dataDir ?? path.join(process.cwd(), ".data", "pglite"),
  );
}

// One instance per process, kept on globalThis so hot reload in `next dev` does not open the folder twice.
const globalForDb = globalThis as unknown as { __storageDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  if (!globalForDb.__storageDb) {
    const { url } = config().database;
    const opening = url ? openPostgres(url) : openEmbedded(dataDir());
    globalForDb.__storageDb = opening;
    // A failed open must not be cached: the next request tries again.
    opening.catch(() => {
      if (globalForDb.__storageDb === opening) globalForDb.__storageDb = undefined;
    });
  }
  return globalForDb.__storageDb;
}

export async function getDb() {
  return (await getDatabase()).db;
}
