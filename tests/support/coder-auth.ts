// For tests of Sign in with Coder: the browser's trip through the dashboard's routes and the Coder stand-in.
import { expect } from "vitest";
import { GET as authGet, POST as authPost } from "@/app/api/auth/[...all]/route";
import { GET as me } from "@/app/api/v1/me/route";
import { consent, type CoderOAuth2 } from "@/tests/support/coder-standin/oauth2";
import { BASE, cookieHeader, ctx, someAddress } from "@/tests/support/auth";

/** Asks the dashboard to start Sign in with Coder: its answer (the authorization URL at 200) and its cookie. */
export async function startCoderSignIn() {
  const address = someAddress();
  const start = await authPost(
    new Request(`${BASE}/api/auth/sign-in/social`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, "x-forwarded-for": address },
      body: JSON.stringify({ provider: "coder", callbackURL: "/", errorCallbackURL: "/sign-in" }),
    }),
  );
  return { start, address };
}

/** The browser's trip: the dashboard, Coder's consent page as `username` (Allow), the callback. */
export async function signInWithCoder(oauth: CoderOAuth2, username: string) {
  const { start, address } = await startCoderSignIn();
  expect(start.status, await start.clone().text()).toBe(200);
  const authorize = new URL(((await start.json()) as { url: string }).url);
  oauth.signInAs(username);
  const approved = await consent(authorize);
  expect(approved.status).toBe(302);
  const callback = new URL(approved.headers.get("location")!);
  const done = await authGet(
    new Request(callback, { headers: { cookie: cookieHeader(start), "x-forwarded-for": address } }),
  );
  expect(done.status).toBe(302);
  return { authorize, callback, location: new URL(done.headers.get("location")!, BASE), cookie: cookieHeader(done) };
}

/** The role and label of the session `cookie`, or null when it is none. */
export async function roleOf(cookie: string) {
  const res = await me(new Request(`${BASE}/api/v1/me`, { headers: { cookie } }), ctx());
  return res.status === 200 ? ((await res.json()) as { role: string; label: string }) : null;
}
