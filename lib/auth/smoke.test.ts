import { beforeAll, expect, it } from "vitest";
import { GET as me } from "@/app/api/v1/me/route";
import { describeEachDatabase, serveRoutesFrom } from "@/lib/db/testing";
import { BASE, ctx, makePrincipals, type Principals } from "./testing";

describeEachDatabase("auth smoke", (t) => {
  let p: Principals;
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    p = await makePrincipals(t.current);
  });
  it("knows a session and a token", async () => {
    const a = await me(new Request(`${BASE}/api/v1/me`, { headers: { cookie: p.viewer.cookie } }), ctx());
    expect(await a.json()).toMatchObject({ kind: "user", role: "viewer" });
    const b = await me(new Request(`${BASE}/api/v1/me`, { headers: { authorization: `Bearer ${p.adminToken}` } }), ctx());
    expect(await b.json()).toMatchObject({ kind: "token", role: "admin" });
  });
});
