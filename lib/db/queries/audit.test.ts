import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { GET as auditApi } from "@/app/api/v1/audit/route";
import { ctx, BASE, makePrincipals, type Principals } from "@/lib/auth/testing";
import { describeEachDatabase, serveRoutesFrom } from "@/lib/db/testing";
import { auditRows, listAudit, recordAudit } from "./audit";

describeEachDatabase("audit log", (t) => {
  let p: Principals;
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current, "aud");
    // 25 events in one millisecond (same `at`): the id breaks the tie, so pages neither skip nor repeat.
    await t.current.db.execute(sql`insert into audit_log (at, actor_type, actor_label, action, target)
      select '2026-01-01T00:00:00Z', 'system', 'bulk', 'test.bulk', 'n' || g from generate_series(1, 25) g`);
    for (let i = 0; i < 5; i++) await recordAudit(t.current.db, { actor: { type: "system", label: "later" }, action: "test.later", target: String(i) });
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
    expect((await listAudit(t.current.db, { to: new Date("2026-01-02") }, { limit: 50 })).entries.every((e) => e.actorLabel !== "later")).toBe(true);
    const all: string[] = [];
    for await (const row of auditRows(t.current.db, { actor: "bulk" }, 4)) all.push(row.target!);
    expect(all).toHaveLength(25);
  });

  it("serves pages over the API with a cursor, to admins only", async () => {
    const first = await auditApi(new Request(`${BASE}/api/v1/audit?actor=bulk&limit=10`, { headers: { cookie: p.admin.cookie } }), ctx());
    const body = await first.json();
    expect(body.entries).toHaveLength(10);
    const next = await auditApi(new Request(`${BASE}/api/v1/audit?actor=bulk&limit=10&cursor=${encodeURIComponent(body.nextCursor)}`, { headers: { cookie: p.admin.cookie } }), ctx());
    const body2 = await next.json();
    expect(body2.entries[0].id).toBeLessThan(body.entries[9].id);
    const bad = await auditApi(new Request(`${BASE}/api/v1/audit?cursor=nope`, { headers: { cookie: p.admin.cookie } }), ctx());
    expect(bad.status).toBe(422);
    expect((await auditApi(new Request(`${BASE}/api/v1/audit`, { headers: { cookie: p.viewer.cookie } }), ctx())).status).toBe(403);
  });

  it("is append-only in the database itself", async () => {
    const refused = { cause: { message: expect.stringMatching(/audit_log is append-only/) } };
    await expect(t.current.db.execute(sql`update audit_log set action = 'x'`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`delete from audit_log`)).rejects.toMatchObject(refused);
    await expect(t.current.db.execute(sql`truncate audit_log`)).rejects.toMatchObject(refused);
  });
});
