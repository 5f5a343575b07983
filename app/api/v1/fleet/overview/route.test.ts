// Route-level behaviour of the dashboard's JSON API that needs no data: who is asking is settled before
// anything else (no credentials: 401 without touching the database), and a database outage answers with the
// error envelope, never with an empty result. (Parameter validation with a signed-in caller: lib/auth/access.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as agent } from "@/app/api/v1/agents/[agent]/route";
import { GET as findings } from "@/app/api/v1/findings/route";
import { PUT as putRules } from "@/app/api/v1/findings/rules/route";
import { GET as workspace } from "@/app/api/v1/workspaces/[id]/route";
import { GET as workspaces } from "@/app/api/v1/workspaces/route";
import { resetConfigForTests } from "@/lib/config";
import { GET as overview } from "./route";

const req = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init);
const ctx = <T>(params: T) => ({ params: Promise.resolve(params) });

describe("dashboard API routes", () => {
  const saved = process.env.DATABASE_URL;
  beforeAll(() => {
    // Nothing listens on port 1: every database call fails.
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:1/none";
    resetConfigForTests();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    resetConfigForTests();
  });

  it("refuses callers without credentials with 401 before parameters, body or database", async () => {
    const put = (body: string) =>
      putRules(
        req("/api/v1/findings/rules", { method: "PUT", body, headers: { "content-type": "application/json" } }),
        ctx({}),
      );
    for (const res of [
      await overview(req("/api/v1/fleet/overview?range=1y"), ctx({})),
      await workspaces(req("/api/v1/workspaces?sort=bogus"), ctx({})),
      await findings(req("/api/v1/findings?severity=urgent"), ctx({})),
      await workspace(req("/api/v1/workspaces/x?range=custom&from=2026-02-01&to=2026-01-01"), ctx({ id: "x" })),
      await put(JSON.stringify({ rules: [{ id: "volume-filling", params: { days: -1 } }] })),
      await put("{ not json"),
    ]) {
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
  });

  it("answers a database outage with a 503 envelope, never an empty result", async () => {
    const signedIn = { headers: { cookie: "storage.session_token=abc.def" } };
    for (const res of [
      await overview(req("/api/v1/fleet/overview", signedIn), ctx({})),
      await workspaces(req("/api/v1/workspaces", signedIn), ctx({})),
      await findings(req("/api/v1/findings", signedIn), ctx({})),
      await agent(req("/api/v1/agents/codex", signedIn), ctx({ agent: "codex" })),
      await workspace(req("/api/v1/workspaces/ws-a", signedIn), ctx({ id: "ws-a" })),
    ]) {
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: "database_unavailable", message: expect.any(String) } });
    }
  });
});
