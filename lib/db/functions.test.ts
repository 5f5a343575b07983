import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { applyFunctions, FUNCTIONS_FOLDER } from "./functions";
import { openPostgres } from "./open";
import { createScratchPostgres, describeEachDatabase } from "@/tests/support/db";
import { rowsOf } from "./types";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "functions-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const probe = (answer: number) =>
  fs.writeFileSync(
    path.join(folder, "function_probe.sql"),
    `CREATE OR REPLACE FUNCTION function_probe() RETURNS int LANGUAGE sql AS $$ SELECT ${answer} $$;`,
  );

describeEachDatabase("function files", (t) => {
  const answer = async () => rowsOf<{ n: number }>(await t.current.db.execute(sql`select function_probe() as n`))[0].n;
  const exists = async () =>
    rowsOf<{ n: number }>(
      await t.current.db.execute(sql`select count(*)::int as n from pg_proc where proname = 'function_probe'`),
    )[0].n === 1;

  it("applies every file of drizzle/functions at open and records its checksum", async () => {
    const recorded = rowsOf<{ name: string; checksum: string }>(
      await t.current.db.execute(sql`select name, checksum from drizzle.function_checksums order by name`),
    );
    const files = fs.readdirSync(FUNCTIONS_FOLDER).sort();
    expect(files.length).toBeGreaterThan(0);
    expect(recorded).toEqual(
      files.map((f) => ({
        name: f.replace(/\.sql$/, ""),
        checksum: createHash("sha256")
          .update(fs.readFileSync(path.join(FUNCTIONS_FOLDER, f)))
          .digest("hex"),
      })),
    );
    // Nothing changed since: a second start applies nothing.
    expect(await applyFunctions(t.current.db)).toEqual([]);
  });

  it("applies a file whose checksum changed, and leaves an unchanged one alone", async () => {
    probe(1);
    expect(await applyFunctions(t.current.db, folder)).toEqual(["function_probe"]);
    expect(await answer()).toBe(1);

    // Unchanged: not re-applied (a dropped function stays dropped).
    await t.current.db.execute(sql`drop function function_probe()`);
    expect(await applyFunctions(t.current.db, folder)).toEqual([]);
    expect(await exists()).toBe(false);

    probe(2);
    expect(await applyFunctions(t.current.db, folder)).toEqual(["function_probe"]);
    expect(await answer()).toBe(2);
  });

  it("records no checksum for a file that fails, so the next start tries it again", async () => {
    fs.writeFileSync(path.join(folder, "function_probe.sql"), "CREATE OR REPLACE FUNCTION function_probe( broken");
    await expect(applyFunctions(t.current.db, folder)).rejects.toThrow();
    probe(3);
    expect(await applyFunctions(t.current.db, folder)).toEqual(["function_probe"]);
    expect(await answer()).toBe(3);
  });
});

it("applies the function files once when app instances start together on one PostgreSQL", async () => {
  const scratch = await createScratchPostgres();
  try {
    const opened = await Promise.all([1, 2, 3].map(() => openPostgres(scratch.url, 2)));
    const [first] = opened;
    const [{ n }] = rowsOf<{ n: number }>(
      await first.db.execute(sql`select count(*)::int as n from drizzle.function_checksums`),
    );
    expect(n).toBe(fs.readdirSync(FUNCTIONS_FOLDER).length);
    await Promise.all(opened.map((d) => d.close()));
  } finally {
    await scratch.drop();
  }
});
