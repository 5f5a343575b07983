import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/lib/db/testing";
import { auditRows, listAudit, recordAudit } from "./audit";

describeEachDatabase("audit log", (t) => {
  beforeAll(async () => {
    // 25 events in one millisecond (same `at`): the id breaks the tie, so pages neither skip nor repeat.
    await t.current.db.execute(sql`insert into audit_log (at, actor_type, actor_label, action, target)
      select '2026-01-01T00:00:00Z', 'system', 'bulk', 'test.bulk', 'n' || g from generate_series(1, 25) g`);
    for (let i = 0; i < 5; i++)
      await recordAudit(t.current.db, {
        actor: { type: "system", label: "later" },
        action: "test.later",
        target: String(i),
      });
  });

  it("pages by key, newest first, without skipping or repeating rows that share a time", async () => {
    const seen: string[] = [];
    let cursor: { at: Date; id: number } | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await listAudit(t.current.db, { actor: "bulk" }, { cursor, limit: 7 });
      seen.push(...page.entries.map((e) => e.target!));
      if (!page.nextCursor) break;
      const last = page.entries.at(-1)!;
      cursor = { at: new Date(last.at), id: last.id };
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe("n25");
  });

  it("filters by actor, action and time, and streams every row through auditRows", async () => {
    expect((await listAudit(t.current.db, { action: "test.later" }, { limit: 50 })).entries).toHaveLength(5);
    expect(
      (await listAudit(t.current.db, { to: new Date("2026-01-02") }, { limit: 50 })).entries.every(
        (e) => e.actorLabel !== "later",
      ),
    ).toBe(true);
    const all: string[] = [];
    for await (const row of auditRows(t.current.db, { actor: "bulk" }, 4)) all.push(row.target!);
    expect(all).toHaveLength(25);
  });

  it("is append-only in the database itself", async () => {
    const refused = { cause: { message: expect.stringMatching(/audit_log is append-only/) } };
    await expect(t.current.db.execute(sql`update audit_log set action = 'x'`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`delete from audit_log`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`truncate audit_log`)).rejects.toMatchObject(refused);
  });
});
