// Route-level behaviour of the dashboard's JSON API that needs no data: parameter validation and a database
// outage, which must answer with the error envelope, never with an empty result.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as agent } from "@/app/api/v1/agents/[agent]/route";
import { GET as findings } from "@/app/api/v1/findings/route";
import { PUT as putRules } from "@/app/api/v1/findings/rules/route";
import { GET as workspace } from "@/app/api/v1/workspaces/[id]/route";
import { GET as workspaces } from "@/app/api/v1/workspaces/route";
import { GET as overview } from "./route";

const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init);
const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });

describe("dashboard API routes", () => {
  const saved = { url: process.env.DATABASE_URL, admin: process.env.STORAGE_ADMIN_TOKEN };
  beforeAll(() => {
    // Nothing listens on port 1: every database call fails.
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:1/none";
    process.env.STORAGE_ADMIN_TOKEN = "admin-secret";
  });
  afterAll(() => {
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    if (saved.admin === undefined) delete process.env.STORAGE_ADMIN_TOKEN;
    else process.env.STORAGE_ADMIN_TOKEN = saved.admin;
  });

  it("rejects bad parameters with 422 before touching the database", async () => {
    for (const res of [
      await overview(req("/api/v1/fleet/overview?range=1y"), ctx({})),
      await overview(req("/api/v1/fleet/overview?range=custom"), ctx({})),
      await workspaces(req("/api/v1/workspaces?sort=bogus"), ctx({})),
      await workspaces(req("/api/v1/workspaces?pageSize=100000"), ctx({})),
      await findings(req("/api/v1/findings?severity=urgent"), ctx({})),
      await workspace(req("/api/v1/workspaces/x?range=custom&from=2026-02-01&to=2026-01-01"), ctx({ id: "x" })),
    ]) {
      expect(res.status).toBe(422);
      expect((await res.json()).error.code).toBe("invalid");
    }
  });

  it("guards rule changes with the admin token, checked before the body is read", async () => {
    const put = (body: string, headers: Record<string, string> = {}) =>
      putRules(req("/api/v1/findings/rules", { method: "PUT", body, headers: { "content-type": "application/json", ...headers } }), ctx({}));
    const anonymous = [
      await put(JSON.stringify({ rules: [{ id: "volume-filling", params: { days: 3 } }] })),
      await put(JSON.stringify({ rules: [{ id: "volume-filling", params: { days: -1 } }] })),
      await put("{ not json"),
      await put("{}", { authorization: "Bearer wrong-secret" }),
    ];
    for (const res of anonymous) {
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
    const bad = await putRules(
      req("/api/v1/findings/rules", { method: "PUT", body: JSON.stringify({ rules: [{ id: "volume-filling", params: { days: -1 } }] }), headers: { "content-type": "application/json", authorization: "Bearer admin-secret" } }),
      ctx({}),
    );
    expect(bad.status).toBe(422);
  });

  it("answers a database outage with a 503 envelope, never an empty result", async () => {
    for (const res of [
      await overview(req("/api/v1/fleet/overview"), ctx({})),
      await workspaces(req("/api/v1/workspaces"), ctx({})),
      await findings(req("/api/v1/findings"), ctx({})),
      await agent(req("/api/v1/agents/codex"), ctx({ agent: "codex" })),
      await workspace(req("/api/v1/workspaces/ws-a"), ctx({ id: "ws-a" })),
    ]) {
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: "database_unavailable", message: expect.any(String) } });
    }
  });
});
