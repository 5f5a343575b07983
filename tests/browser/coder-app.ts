// The Coder stand-in's OAuth2 app for a dashboard the test starts: the dashboard's port is picked first, since the
// callback registered in Coder is made from its public URL; and the member's way in through "Sign in with Coder".
import type { Page } from "playwright-core";
import { freePort } from "../../scripts/lib/next-server";
import { coderOAuth2, type CoderOAuth2, type CoderOAuth2App, type CoderUser } from "../support/coder-standin/oauth2";

export type CoderApp = {
  port: number;
  url: string;
  client: CoderOAuth2App;
  oauth: CoderOAuth2;
  /** The dashboard's settings for Sign in with Coder against `coderUrl`. */
  env: (coderUrl: string) => Record<string, string>;
};

/** A dashboard's port and URL, and the OAuth2 app Coder holds for it, whose sign-ins are `users`. */
export async function coderApp(clientId: string, users: CoderUser[]): Promise<CoderApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = {
    clientId,
    clientSecret: `coder-secret-${clientId.slice(0, 8)}`,
    redirectUri: `${url}/api/auth/oauth2/callback/coder`,
  };
  return {
    port,
    url,
    client,
    oauth: coderOAuth2({ app: client, users }),
    env: (coderUrl) => ({
      BETTER_AUTH_URL: url,
      CODER_URL: coderUrl,
      CODER_OAUTH2_CLIENT_ID: client.clientId,
      CODER_OAUTH2_CLIENT_SECRET: client.clientSecret,
    }),
  };
}

/** A Coder user with no site-wide role: a member of the dashboard. */
export const coderMember = (id: string, username: string): CoderUser => ({
  id,
  username,
  email: `${username}@coder.example.com`,
  name: username,
  status: "active",
  roles: [],
});

/** From the sign-in page `page` shows, through Coder's consent page (Allow), to the member's own page. */
export async function signInWithCoder(page: Page, appUrl: string, coderUrl: string): Promise<void> {
  await page.getByRole("button", { name: "Sign in with Coder" }).click();
  await page.waitForURL((u) => u.origin === coderUrl, { timeout: 20_000 });
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((u) => u.origin === appUrl && u.pathname === "/me", { timeout: 20_000 });
}
