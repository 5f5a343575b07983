// Single sign-on through the browser against a real OpenID provider started here: redirect, login and consent
// at the provider, callback, session and role (admin by group, viewer otherwise, another domain refused).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { freePort } from "../../scripts/lib/next-server";
import { launchChromium } from "./chromium";
import { OIDC_ACCOUNTS, OIDC_CLIENT, startOidcProvider, type RunningProvider } from "./oidc-provider";
import { startDashboard, type Dashboard } from "./server";

let browser: Browser;
let app: Dashboard;
let idp: RunningProvider;

beforeAll(async () => {
  browser = await launchChromium();
  const idpPort = await freePort();
  // Single sign-on needs the app's public URL (BETTER_AUTH_URL): the callback URL is made from it.
  const appPort = await freePort();
  const appUrl = `http://127.0.0.1:${appPort}`;
  // The app learns the issuer at start; the provider learns the app's callback once the app has its port.
  app = await startDashboard({
    workspaces: 3,
    days: 2,
    logName: "browser-oidc-next.log",
    port: appPort,
    env: {
      BETTER_AUTH_URL: appUrl,
      OIDC_ISSUER_URL: `http://127.0.0.1:${idpPort}`,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_SCOPES: "openid,email,profile,groups",
      OIDC_ALLOWED_DOMAINS: "example.com",
      OIDC_ADMIN_GROUPS: "storage-admins",
    },
  });
  idp = await startOidcProvider(idpPort, `${appUrl}/api/auth/callback/oidc`);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await idp?.close();
});

/** Signs in at the provider as `login` from the dashboard's sign-in page; returns the page where it ends. */
async function ssoAs(login: string, startAt = "/workspaces") {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.url}${startAt}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  await page.getByRole("button", { name: /Sign in with/ }).click();
  // On failure, say where the browser is and what it shows (the provider's error page names the cause).
  const explain = async (e: unknown) => {
    throw new Error(`${e}\n${page.url()}\n${await page.locator("body").innerText()}`);
  };
  await page.waitForURL((u) => u.origin === idp.issuer).catch(explain);
  await page.locator('input[name="login"]').fill(login, { timeout: 10_000 }).catch(explain);
  await page.locator('input[name="password"]').fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((u) => u.origin === app.url, { timeout: 20_000 });
  await page.waitForLoadState("networkidle");
  return { page, context };
}

describe("single sign-on", () => {
  it("makes a user in an admin group an admin, back on the page they asked for", async () => {
    const { page, context } = await ssoAs("alice");
    expect(new URL(page.url()).pathname).toBe("/workspaces");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("admin");
    await page.getByRole("link", { name: "Users" }).waitFor();
    await context.close();
  });

  it("makes anyone else allowed a viewer", async () => {
    const { page, context } = await ssoAs("bob", "/");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("viewer");
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await context.close();
  });

  it("refuses a user outside the allowed domains with a clear message", async () => {
    const { page, context } = await ssoAs("mallory");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await expect(page.getByTestId("sign-in-error").textContent()).resolves.toMatch(/elsewhere\.org may not sign in/);
    await page.goto(`${app.url}/workspaces`, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await context.close();
  });

  it("re-reads the role from the groups at every sign-in", async () => {
    OIDC_ACCOUNTS.alice.groups = ["dev"];
    try {
      const { page, context } = await ssoAs("alice", "/");
      await expect(page.getByTestId("user-role").textContent()).resolves.toBe("viewer");
      await context.close();
    } finally {
      OIDC_ACCOUNTS.alice.groups = ["storage-admins", "dev"];
    }
  });

  it("kept the client secret out of the server log", () => {
    expect(app.log()).not.toContain(OIDC_CLIENT.secret);
  });
});
