import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteConn } from "./connection";

// The embedded database's backup reads a table a range of heap pages at a time: a table of several ranges, plain
// or partitioned, comes out whole, each row once, as PostgreSQL's own COPY writes it.

describe("reading the embedded database's tables for a backup", () => {
  const client = new PGlite();
  const whole = async (table: string, where = "true") => {
    const { blob } = await client.query(`copy (select * from ${table} where ${where}) to '/dev/blob'`);
    return (await blob!.text()).split("\n").filter(Boolean).sort();
  };
  const read = async (table: string, columns: string[], where = "true") => {
    const chunks: Buffer[] = [];
    for await (const chunk of pgliteConn(client).copyOut({ table, columns, expressions: columns, where }))
      chunks.push(chunk);
    return { chunks: chunks.length, lines: Buffer.concat(chunks).toString("utf8").split("\n").filter(Boolean).sort() };
  };

  beforeAll(async () => {
    // About 12 MiB of heap each: several ranges of pages. Text with tabs, newlines and backslashes to escape.
    await client.exec(`
      create table plain (id int primary key, note text, done boolean);
      insert into plain select g, repeat('x', 300) || E'\\t\\n\\\\' || g, g % 3 = 0 from generate_series(1, 30000) g;
      create table history (at date not null, id int, note text) partition by range (at);
      create table history_a partition of history for values from ('2026-01-01') to ('2026-02-01');
      create table history_rest partition of history default;
      insert into history select date '2026-01-01' + (g % 60), g, repeat('y', 300) from generate_series(1, 30000) g;`);
  }, 60_000);
  afterAll(() => client.close());

  it("reads a plain table of several page ranges whole", async () => {
    const { chunks, lines } = await read("plain", ["id", "note", "done"]);
    expect(chunks).toBeGreaterThan(1);
    expect(lines).toHaveLength(30000);
    expect(lines).toEqual(await whole("plain"));
  });

  it("reads every partition of a partitioned table, and leaves out the rows asked", async () => {
    const { lines } = await read("history", ["at", "id", "note"], "id % 7 <> 0");
    expect(lines).toEqual(await whole("history", "id % 7 <> 0"));
    expect(lines).toHaveLength(30000 - Math.floor(30000 / 7));
  });
});
