// The signed-in owner's notification preferences: read, change (audited), and the switches the sender reads.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { auditLog } from "@/lib/db/schema";
import { createApiToken } from "@/lib/services/api-tokens";
import { createUser } from "@/lib/services/users";
import { BASE, ctx } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { GET, PUT } from "./route";

const URL = `${BASE}/api/v1/me/notification-preferences`;

describeEachDatabase("GET/PUT /api/v1/me/notification-preferences", (t) => {
  let token = "";
  let nameless = "";
  const auth = (tok: string) => ({ authorization: `Bearer ${tok}` });

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const db = t.current.db;
    const member = await createUser(
      db,
      { email: "nina@example.com", password: "pw-nina-0123456789", role: "viewer" },
      TEST_WHO,
    );
    await db.execute(sql`update users set coder_username = 'nina' where id = ${member.id}`);
    token = (await createApiToken(db, member.id, { name: "nina", role: "viewer" }, TEST_WHO)).token;
    const other = await createUser(
      db,
      { email: "x@example.com", password: "pw-x-0123456789abc", role: "viewer" },
      TEST_WHO,
    );
    nameless = (await createApiToken(db, other.id, { name: "x", role: "viewer" }, TEST_WHO)).token;
  });

  it("answers every optional kind on by default, and the kinds that always go", async () => {
    const res = await GET(new Request(URL, { headers: auth(token) }), ctx());
    expect(res.status).toBe(200);
    const on = { filling: true, "growing-file": true, "lost-at-restart": true };
    expect(await res.json()).toEqual({
      owner: "nina",
      channels: { email: on, webhook: on, "coder-inbox": on },
      // none of nina's workspaces delivers to her Coder Inbox: the page offers no switches for it
      coderInbox: false,
      alwaysSent: ["full", "cleanup-ahead"],
    });
    expect((await GET(new Request(URL), ctx())).status).toBe(401);
    expect((await GET(new Request(URL, { headers: auth(nameless) }), ctx())).status).toBe(409);
  });

  it("changes the switches named, keeps the others, and audits the change", async () => {
    const put = (body: unknown) =>
      PUT(
        new Request(URL, {
          method: "PUT",
          headers: { ...auth(token), "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        ctx(),
      );
    const res = await put({
      channels: { email: { filling: false }, webhook: { "lost-at-restart": false }, "coder-inbox": { filling: false } },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).channels).toEqual({
      email: { filling: false, "growing-file": true, "lost-at-restart": true },
      webhook: { filling: true, "growing-file": true, "lost-at-restart": false },
      "coder-inbox": { filling: false, "growing-file": true, "lost-at-restart": true },
    });
    expect((await put({ channels: { email: { full: false } } })).status).toBe(422);
    const audits = await t.current.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "notifications.preferences_changed"), eq(auditLog.target, "nina")));
    expect(audits).toHaveLength(1);
  });
});
