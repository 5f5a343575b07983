// Off-boarding: a user's API tokens never act above the user as they are now, and end or are capped in the very
// change that disables or demotes the user (audited); nobody changes their own role or disabled flag. Through the
// route handlers, on both databases.
import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { PUT as putRules } from "@/app/api/v1/findings/rules/route";
import { GET as me } from "@/app/api/v1/me/route";
import { GET as listTokens, POST as createToken } from "@/app/api/v1/tokens/route";
import { PATCH as patchUser } from "@/app/api/v1/users/[id]/route";
import { createApiToken } from "./api-tokens";
import { createUser } from "./users";
import { listAudit } from "@/lib/db/queries/audit";
import { users } from "@/lib/db/schema";
import { BASE, ctx, signIn } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (path: string, headers: Record<string, string>, method = "GET", body?: unknown) =>
  new Request(`${BASE}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const whoAmI = async (headers: Record<string, string>) => {
  const res = await me(call("/api/v1/me", headers), ctx());
  return res.status === 200 ? ((await res.json()) as { role: string }).role : res.status;
};
const changeRules = async (headers: Record<string, string>) =>
  (await putRules(call("/api/v1/findings/rules", headers, "PUT", { rules: [] }), ctx())).status;

describeEachDatabase("a user's tokens follow the user's rights", (t) => {
  let n = 0;
  /** An admin with a password, signed in, and an admin and a viewer token of theirs. */
  const anAdmin = async () => {
    const email = `admin-${++n}@example.com`;
    const password = `pw-admin-${n}-0123456789`;
    const user = await createUser(t.current.db, { email, password, role: "admin" }, TEST_WHO);
    const token = async (role: "admin" | "viewer") =>
      (await createApiToken(t.current.db, user.id, { name: `${role}-of-${n}`, role }, TEST_WHO)).token;
    return { ...user, cookie: { cookie: await signIn(email, password) }, admin: await token("admin") };
  };
  const patch = (id: string, headers: Record<string, string>, body: unknown) =>
    patchUser(call(`/api/v1/users/${id}`, headers, "PATCH", body), ctx({ id }));
  const audited = async (action: string, target: string) =>
    (await listAudit(t.current.db, { action }, { limit: 100 })).entries.filter((e) => e.target === target);

  beforeAll(() => serveRoutesFrom(t.current));

  it("never lets a token act above its owner as the owner is now", async () => {
    const owner = await anAdmin();
    expect(await whoAmI(bearer(owner.admin))).toBe("admin");
    // Changed behind the dashboard's back (no cap written): the token still answers as the owner is.
    await t.current.db.update(users).set({ role: "viewer" }).where(eq(users.id, owner.id));
    expect(await whoAmI(bearer(owner.admin))).toBe("viewer");
    expect(await changeRules(bearer(owner.admin))).toBe(403);
    await t.current.db.update(users).set({ banned: true }).where(eq(users.id, owner.id));
    expect(await whoAmI(bearer(owner.admin))).toBe(401);
  });

  it("caps a demoted user's tokens and ends a disabled user's, in the change itself, audited", async () => {
    const other = await anAdmin();
    const owner = await anAdmin();
    const viewerToken = (
      await createApiToken(t.current.db, owner.id, { name: "viewer-of-owner", role: "viewer" }, TEST_WHO)
    ).token;
    expect((await patch(owner.id, other.cookie, { role: "viewer" })).status).toBe(200);
    expect(await whoAmI(bearer(owner.admin))).toBe("viewer");
    expect(await whoAmI(bearer(viewerToken))).toBe("viewer");
    const listed = async () =>
      (
        (await (await listTokens(call("/api/v1/tokens", other.cookie), ctx())).json()) as {
          tokens: { name: string; role: string; revoked: boolean }[];
        }
      ).tokens.filter((tk) => tk.name.endsWith(`-of-${n}`) || tk.name === "viewer-of-owner");
    expect(await listed()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: `admin-of-${n}`, role: "viewer", revoked: false }),
        expect.objectContaining({ name: "viewer-of-owner", role: "viewer", revoked: false }),
      ]),
    );
    expect(await audited("token.capped", `admin-of-${n}`)).toMatchObject([
      { actorLabel: other.email, details: { from: "admin", to: "viewer" } },
    ]);
    // Promoted again, the token stays capped: it is given back only by making a new one.
    expect((await patch(owner.id, other.cookie, { role: "admin" })).status).toBe(200);
    expect(await whoAmI(bearer(owner.admin))).toBe("viewer");

    expect((await patch(owner.id, other.cookie, { disabled: true })).status).toBe(200);
    expect(await whoAmI(bearer(owner.admin))).toBe(401);
    expect(await whoAmI(bearer(viewerToken))).toBe(401);
    expect((await listed()).every((tk) => tk.revoked)).toBe(true);
    expect(await audited("token.revoked", "viewer-of-owner")).toMatchObject([
      { actorLabel: other.email, details: { reason: "owner disabled" } },
    ]);
    // Enabled again, the user signs in again; their old tokens stay ended.
    expect((await patch(owner.id, other.cookie, { disabled: false })).status).toBe(200);
    expect(await whoAmI(bearer(owner.admin))).toBe(401);
  });

  it("refuses anyone's change of their own role or disabled flag, by session or token, and changes nothing", async () => {
    const self = await anAdmin();
    for (const headers of [self.cookie, bearer(self.admin)]) {
      for (const body of [{ role: "viewer" }, { disabled: true }, { role: "admin" }]) {
        const res = await patch(self.id, headers, body);
        expect(res.status).toBe(403);
        expect(await res.text()).toMatch(/their own role or disabled flag/);
      }
    }
    expect(await whoAmI(self.cookie)).toBe("admin");
    expect(await whoAmI(bearer(self.admin))).toBe("admin");
    expect(await audited("user.role_changed", self.email)).toEqual([]);
    expect(await audited("user.disabled", self.email)).toEqual([]);
  });

  it("makes a token minted by a token its owner's, so it ends with them", async () => {
    const other = await anAdmin();
    const owner = await anAdmin();
    const made = await createToken(
      call("/api/v1/tokens", bearer(owner.admin), "POST", { name: "minted", role: "admin" }),
      ctx(),
    );
    expect(made.status).toBe(201);
    const { token } = (await made.json()) as { token: string };
    expect(await whoAmI(bearer(token))).toBe("admin");
    expect((await patch(owner.id, other.cookie, { disabled: true })).status).toBe(200);
    expect(await whoAmI(bearer(token))).toBe(401);
  });
});
