// Audits commit with their change: every route that changes something writes its audit entry in the change's own
// transaction. Here the audit insert is made to fail (a trigger refuses it, as a failure at commit would): the
// route must answer 500 and leave nothing changed. Without the failure, the change and its entry are both there.
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PUT as putRules } from "@/app/api/v1/findings/rules/route";
import { POST as rotateKey } from "@/app/api/v1/enrollment-key/rotate/route";
import { PUT as putRetention } from "@/app/api/v1/settings/retention/route";
import { POST as setup } from "@/app/api/v1/setup/route";
import { DELETE as revokeToken } from "@/app/api/v1/tokens/[id]/route";
import { POST as createToken } from "@/app/api/v1/tokens/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { POST as createUser } from "@/app/api/v1/users/route";
import { DELETE as resetToken } from "@/app/api/v1/workspaces/[id]/token/route";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO, type TestDatabase } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { createApiToken } from "@/lib/services/api-tokens";
import { BASE, ctx, makePrincipals, type Principals } from "@/tests/support/auth";

function call<P extends object>(
  handler: (request: Request, context: { params: Promise<P> }) => Promise<Response>,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  params = {} as P,
) {
  return handler(
    new Request(`${BASE}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    ctx(params),
  );
}

async function refuseAudits(t: TestDatabase, on: boolean) {
  if (on) {
    await t.current.db.execute(sql`create or replace function test_refuse_audit() returns trigger language plpgsql as
      $$ begin raise exception 'audit insert refused by the test'; end $$`);
    await t.current.db.execute(sql`create trigger test_refuse_audit before insert on audit_log
      for each row execute function test_refuse_audit()`);
  } else {
    await t.current.db.execute(sql`drop trigger if exists test_refuse_audit on audit_log`);
  }
}

describeEachDatabase("audits commit with their change", (t) => {
  const one = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.current.db.execute(q))[0];
  const audited = async (action: string) =>
    Number((await one<{ n: number }>(sql`select count(*)::int as n from audit_log where action = ${action}`)).n);

  /** Calls the route with the audit refused (500, nothing changed), then as usual (changed, audited once). */
  async function checkCase(
    action: string,
    state: () => Promise<unknown>,
    send: () => Promise<Response>,
    okStatus: number,
  ) {
    const before = await state();
    const audits = await audited(action);
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await refuseAudits(t, true);
    try {
      const refused = await send();
      expect(refused.status, await refused.text()).toBe(500);
    } finally {
      await refuseAudits(t, false);
      quiet.mockRestore();
    }
    expect(await state(), "the change committed without its audit entry").toEqual(before);
    expect(await audited(action)).toBe(audits);

    const ok = await send();
    expect(ok.status, await ok.text()).toBe(okStatus);
    expect(await state()).not.toEqual(before);
    expect(await audited(action)).toBe(audits + 1);
  }

  beforeAll(() => serveRoutesFrom(t.current));
  afterEach(() => refuseAudits(t, false));

  it("setup: the first admin", async () => {
    await checkCase(
      "user.created",
      () => one(sql`select count(*)::int as n from users where role = 'admin'`),
      () => call(setup, "POST", "/api/v1/setup", { email: "first@example.com", password: "first-admin-password" }),
      201,
    );
  });

  describe("admin changes", () => {
    let p: Principals;
    let asAdmin: Record<string, string>;
    beforeAll(async () => {
      p = await makePrincipals(t.current, "commit");
      asAdmin = { authorization: `Bearer ${p.adminToken}` };
    });

    it("users: create", async () => {
      await checkCase(
        "user.created",
        () => one(sql`select count(*)::int as n from users where email = 'audited@example.com'`),
        () => call(createUser, "POST", "/api/v1/users", { email: "audited@example.com", role: "viewer" }, asAdmin),
        201,
      );
    });

    it("users: change a role", async () => {
      await checkCase(
        "user.role_changed",
        () => one(sql`select role from users where id = ${p.viewer.id}`),
        () => call(patchUser, "PATCH", `/api/v1/users/${p.viewer.id}`, { role: "admin" }, asAdmin, { id: p.viewer.id }),
        200,
      );
    });

    it("tokens: create", async () => {
      await checkCase(
        "token.created",
        () => one(sql`select count(*)::int as n from api_keys where name = 'audited-token'`),
        () => call(createToken, "POST", "/api/v1/tokens", { name: "audited-token", role: "viewer" }, asAdmin),
        201,
      );
    });

    it("tokens: revoke", async () => {
      const { info } = await createApiToken(t.current.db, p.admin.id, { name: "to-revoke", role: "viewer" }, TEST_WHO);
      await checkCase(
        "token.revoked",
        () => one(sql`select enabled from api_keys where id = ${info.id}`),
        () => call(revokeToken, "DELETE", `/api/v1/tokens/${info.id}`, undefined, asAdmin, { id: info.id }),
        200,
      );
    });

    it("retention", async () => {
      await checkCase(
        "settings.retention_changed",
        () => one(sql`select count(*)::int as n, max(value) as v from settings where key = 'retention.raw_days'`),
        () => call(putRetention, "PUT", "/api/v1/settings/retention", { raw: 20 }, asAdmin),
        200,
      );
    });

    it("findings rules", async () => {
      await checkCase(
        "rules.updated",
        () =>
          one(
            sql`select count(*)::int as n, bool_and(enabled) as enabled from finding_rules where id = 'large-session'`,
          ),
        () =>
          call(
            putRules,
            "PUT",
            "/api/v1/findings/rules",
            { rules: [{ id: "large-session", enabled: false }] },
            asAdmin,
          ),
        200,
      );
    });

    it("a workspace's token reset", async () => {
      const db = t.current.db;
      await enrollWorkspace(
        db,
        { id: "ws-commit", name: "commit", owner: "olga" },
        (await getEnrollmentKey(db)).key,
        null,
      );
      await checkCase(
        "workspace.token_reset",
        () => one(sql`select count(*)::int as n from workspace_tokens where workspace_id = 'ws-commit'`),
        () => call(resetToken, "DELETE", "/api/v1/workspaces/ws-commit/token", undefined, asAdmin, { id: "ws-commit" }),
        200,
      );
    });

    it("enrollment key rotation", async () => {
      await getEnrollmentKey(t.current.db);
      await checkCase(
        "enrollment_key.rotated",
        () => one(sql`select value from settings where key = 'enrollment_key'`),
        () => call(rotateKey, "POST", "/api/v1/enrollment-key/rotate", undefined, asAdmin),
        200,
      );
    });
  });
});
