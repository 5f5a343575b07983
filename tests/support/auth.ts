// Helpers for tests that call route handlers as signed-in users or with API tokens.
import { expect } from "vitest";
import { POST as authPost } from "@/app/api/auth/[...all]/route";
import type { Database } from "@/lib/db/open";
import { TEST_WHO } from "@/tests/support/db";
import { createApiToken } from "@/lib/services/api-tokens";
import { createUser } from "@/lib/services/users";
import type { AssignableRole } from "@/lib/validations/auth";

export const BASE = "http://dashboard.test";
export const ctx = <T extends object>(params: T = {} as T) => ({ params: Promise.resolve(params) });

let lastOctet = 0;
/** A fresh client address per call, so that tests do not share Better Auth's per-address sign-in budget. */
export const someAddress = () => `198.51.100.${(lastOctet = (lastOctet % 250) + 1)}`;

/** POSTs a sign-in to Better Auth's mount. */
export function postSignIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return authPost(
    new Request(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": someAddress(), ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** Signs in and returns the Cookie header for later requests. */
export async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await postSignIn(email, password, headers);
  expect(res.status, await res.clone().text()).toBe(200);
  return cookieHeader(res);
}

export function cookieHeader(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");
}

export type Principals = {
  admin: { email: string; password: string; id: string; cookie: string };
  viewer: { email: string; password: string; id: string; cookie: string };
  adminToken: string;
  viewerToken: string;
};

/** An admin and a viewer (signed in), and an admin and a viewer API token. */
export async function makePrincipals(database: Database, tag = "t"): Promise<Principals> {
  const db = database.db;
  const mk = async (role: AssignableRole) => {
    const email = `${role}-${tag}@example.com`;
    const password = `pw-${role}-${tag}-0123456789`;
    const user = await createUser(db, { email, password, role }, TEST_WHO);
    return { email, password, id: user.id, cookie: await signIn(email, password) };
  };
  const admin = await mk("admin");
  const viewer = await mk("viewer");
  const adminToken = (await createApiToken(db, admin.id, { name: `admin-${tag}`, role: "admin" }, TEST_WHO)).token;
  const viewerToken = (
    await createApiToken(db, admin.id, { name: `viewer-${tag}`, role: "viewer", expiresInDays: 30 }, TEST_WHO)
  ).token;
  return { admin, viewer, adminToken, viewerToken };
}
