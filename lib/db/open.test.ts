import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { DataFolderLockedError, openEmbedded, openPostgres } from "./open";
import { createScratchPostgres } from "@/tests/support/db";
import { getDatabase } from "./index";
import { rowsOf } from "./types";

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-open-"));
  dirs.push(d);
  return path.join(d, "data");
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("embedded database", () => {
  it("keeps data in its folder across restarts", async () => {
    const dir = tempDir();
    const first = await openEmbedded(dir);
    await first.db.execute(sql`insert into settings (key, value) values ('probe', 'kept')`);
    await first.close();
    const second = await openEmbedded(dir);
    const r = await second.db.execute(sql`select value from settings where key = 'probe'`);
    expect(rowsOf<{ value: string }>(r)).toEqual([{ value: "kept" }]);
    await second.close();
  });

  it("refuses a second opener of the same folder with a clear message, and leaves the first working", async () => {
    const dir = tempDir();
    const first = await openEmbedded(dir);
    const err = await openEmbedded(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFolderLockedError);
    expect((err as Error).message).toContain(dir);
    expect((err as Error).message).toMatch(/in use by another process/);
    await first.db.execute(sql`select 1`);
    await first.close();
    const again = await openEmbedded(dir);
    await again.close();
  });
});

describe("getDatabase", () => {
  const saved = process.env.DATABASE_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    resetConfigForTests();
    delete (globalThis as { __storageDb?: unknown }).__storageDb;
  });

  it("does not keep a failed open: the next call tries again", async () => {
    delete (globalThis as { __storageDb?: unknown }).__storageDb;
    process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/none";
    resetConfigForTests();
    await expect(getDatabase()).rejects.toThrow();
    const dir = tempDir();
    delete process.env.DATABASE_URL;
    process.env.STORAGE_DATA_DIR = dir;
    resetConfigForTests();
    try {
      const db = await getDatabase();
      expect(db.kind).toBe("embedded");
      expect(db.location).toBe(dir);
      await db.close();
    } finally {
      delete process.env.STORAGE_DATA_DIR;
      resetConfigForTests();
    }
  });
});

describe("PostgreSQL connections", () => {
  // JIT compiled the fleet pages' large queries at every call: seconds at fleet size (see CONNECTION_OPTIONS).
  it("run without JIT, on every connection of the pool", async () => {
    const scratch = await createScratchPostgres({ migrated: true });
    const database = await openPostgres(scratch.url, 3);
    try {
      const settings = await Promise.all(
        [1, 2, 3].map(async () => rowsOf<{ jit: string }>(await database.db.execute(sql`show jit`))[0].jit),
      );
      expect(settings).toEqual(["off", "off", "off"]);
    } finally {
      await database.close();
      await scratch.drop();
    }
  });
});
