import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { GET as auditApi } from "@/app/api/v1/audit/route";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";

describeEachDatabase("GET /api/v1/audit", (t) => {
  let p: Principals;
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current, "aud");
    await t.current.db.execute(sql`insert into audit_log (at, actor_type, actor_label, action, target)
      select '2026-01-01T00:00:00Z', 'system', 'bulk', 'test.bulk', 'n' || g from generate_series(1, 25) g`);
  });

  it("serves pages over the API with a cursor, to admins only", async () => {
    const first = await auditApi(
      new Request(`${BASE}/api/v1/audit?actor=bulk&limit=10`, { headers: { cookie: p.admin.cookie } }),
      ctx(),
    );
    const body = await first.json();
    expect(body.entries).toHaveLength(10);
    const next = await auditApi(
      new Request(`${BASE}/api/v1/audit?actor=bulk&limit=10&cursor=${encodeURIComponent(body.nextCursor)}`, {
        headers: { cookie: p.admin.cookie },
      }),
      ctx(),
    );
    const body2 = await next.json();
    expect(body2.entries[0].id).toBeLessThan(body.entries[9].id);
    const bad = await auditApi(
      new Request(`${BASE}/api/v1/audit?cursor=nope`, { headers: { cookie: p.admin.cookie } }),
      ctx(),
    );
    expect(bad.status).toBe(422);
    expect(
      (await auditApi(new Request(`${BASE}/api/v1/audit`, { headers: { cookie: p.viewer.cookie } }), ctx())).status,
    ).toBe(403);
  });
});
