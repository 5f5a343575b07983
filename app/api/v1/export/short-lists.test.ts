// The CSVs of the Users, Cleanup and Settings pages' tables (every table has one): each file holds the rows the
// page's own API lists, with exact figures, asks for the role its page needs, and leaves an audit entry.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, expect, it } from "vitest";
import { makePrincipals } from "@/tests/support/auth";
import { listAudit } from "@/lib/db/queries/audit";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { seedScenario, testNow } from "@/tests/support/reports";
import { GET as recipesList } from "../cleanup/recipes/route";
import { GET as policiesList } from "../cleanup/policies/route";
import { GET as storage } from "../settings/storage/route";
import { GET as tokensList } from "../tokens/route";
import { GET as usersList } from "../users/route";
import { GET as policies } from "./cleanup/policies.csv/route";
import { GET as recipes } from "./cleanup/recipes.csv/route";
import { GET as tables } from "./settings/tables.csv/route";
import { GET as tokens } from "./tokens.csv/route";
import { GET as users } from "./users.csv/route";

type Handler = (request: Request, ctx: { params: Promise<object> }) => Promise<Response>;
const globalDb = globalThis as unknown as { __storageDb?: unknown };
const ctx = { params: Promise.resolve({}) };
let admin: Record<string, string> = {};
let viewer: Record<string, string> = {};

const call = (handler: Handler, path: string, headers: Record<string, string>) =>
  handler(new Request(`http://localhost${path}`, { headers }), ctx);
const csv = async (res: Response) => parse(await res.text(), { columns: true, bom: true }) as Record<string, string>[];
const api = async <T>(handler: Handler, path: string) => (await (await call(handler, path, admin)).json()) as T;

describeEachDatabase("the CSVs of the users, tokens, policies, recipes and table sizes", (t) => {
  beforeAll(async () => {
    await seedScenario(t.current.db, testNow());
    serveRoutesFrom(t.current);
    const p = await makePrincipals(t.current, "lists");
    admin = { authorization: `Bearer ${p.adminToken}` };
    viewer = { authorization: `Bearer ${p.viewerToken}` };
    const policy = {
      name: "lists-policy",
      recipe: "claude-code-debug",
      params: { olderThanDays: 7 },
      scope: { all: true },
      schedule: "off",
    };
    const res = await (
      await import("../cleanup/policies/route")
    ).POST(
      new Request("http://localhost/api/v1/cleanup/policies", {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify(policy),
      }),
      ctx,
    );
    expect(res.status).toBe(201);
  });
  afterAll(() => {
    globalDb.__storageDb = undefined;
  });

  it("hold the rows the pages list, exact figures included", async () => {
    const u = await api<{ users: { id: string; email: string; role: string }[] }>(usersList, "/api/v1/users");
    const uRows = await csv(await call(users, "/api/v1/export/users.csv", admin));
    expect(uRows.map((r) => [r.id, r.email, r.role])).toEqual(u.users.map((x) => [x.id, x.email, x.role]));

    const k = await api<{ tokens: { id: string; name: string }[] }>(tokensList, "/api/v1/tokens");
    const kRows = await csv(await call(tokens, "/api/v1/export/tokens.csv", admin));
    expect(kRows.map((r) => [r.id, r.name])).toEqual(k.tokens.map((x) => [x.id, x.name]));
    expect(Object.keys(kRows[0])).not.toContain("token");

    const p = await api<{ policies: { id: string; name: string }[] }>(policiesList, "/api/v1/cleanup/policies");
    const pRows = await csv(await call(policies, "/api/v1/export/cleanup/policies.csv", viewer));
    expect(pRows.map((r) => [r.id, r.name, r.state])).toEqual(
      p.policies.map((x) => [x.id, x.name, "awaiting confirmation (dry runs)"]),
    );

    const c = await api<{ recipes: { id: string; fleet: { bytes: number } }[] }>(
      recipesList,
      "/api/v1/cleanup/recipes",
    );
    const cRows = await csv(await call(recipes, "/api/v1/export/cleanup/recipes.csv", viewer));
    expect(cRows.map((r) => [r.id, Number(r.frees_fleet_wide_bytes)])).toEqual(
      c.recipes.map((x) => [x.id, x.fleet.bytes]),
    );

    const s = await api<{ tables: { table: string }[] }>(storage, "/api/v1/settings/storage");
    const sRows = await csv(await call(tables, "/api/v1/export/settings/tables.csv", viewer));
    expect(new Set(sRows.map((r) => r.table))).toEqual(new Set(s.tables.map((x) => x.table)));
    for (const r of sRows) expect(r.bytes).toMatch(/^\d+$/);
  });

  it("ask for the role their page needs, and are audited", async () => {
    for (const [handler, path] of [
      [users, "/api/v1/export/users.csv"],
      [tokens, "/api/v1/export/tokens.csv"],
    ] as const) {
      expect((await call(handler, path, viewer)).status).toBe(403);
      expect((await call(handler, path, {})).status).toBe(401);
    }
    expect((await call(tables, "/api/v1/export/settings/tables.csv", {})).status).toBe(401);
    await (await call(tables, "/api/v1/export/settings/tables.csv", viewer)).text();
    const [entry] = (await listAudit(t.current.db, { action: "export.downloaded" }, { limit: 1 })).entries;
    expect(entry).toMatchObject({ actorType: "token", target: expect.stringMatching(/^database-tables-.*\.csv$/) });
  });
});
