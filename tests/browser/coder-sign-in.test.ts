// Sign in with Coder through the browser against the Coder stand-in: the dashboard's button, Coder's consent page
// (Allow, as the user the test picks), the callback at the URI registered in Coder, and the role Coder's
// roles give; a suspended user refused with a message; the stand-in refusing a wrong PKCE verifier.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { consent, type CoderOAuth2, type CoderUser } from "../support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { launchChromium } from "./chromium";
import { coderApp } from "./coder-app";
import { startDashboard, type Dashboard } from "./server";

const site = (name: string) => ({ name, display_name: name, organization_id: "" });
const person = (username: string, status: CoderUser["status"], roles: CoderUser["roles"]): CoderUser => ({
  id: `00000000-0000-0000-0000-${Buffer.from(username).toString("hex").padStart(12, "0").slice(-12)}`,
  username,
  email: `${username}@coder.example.com`,
  name: username,
  status,
  roles,
});

let browser: Browser;
let app: Dashboard;
let coder: CoderStandIn;
let oauth: CoderOAuth2;
let client: { clientId: string; clientSecret: string; redirectUri: string };

beforeAll(async () => {
  browser = await launchChromium();
  const dashboard = await coderApp("5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", [
    person("olivia", "active", [site("owner")]),
    person("arthur", "active", [site("auditor")]),
    person("sam", "suspended", [site("owner")]),
    // No site-wide role: a member. The demo fleet's second workspace is bob's.
    person("bob", "active", []),
  ]);
  ({ client, oauth } = dashboard);
  coder = await startCoderStandIn([oauth.handler]);
  app = await startDashboard({
    workspaces: 3,
    days: 2,
    logName: "browser-coder-next.log",
    port: dashboard.port,
    env: dashboard.env(coder.url),
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await coder?.close();
});

/** Clicks "Sign in with Coder" as `username`; the page where the browser ends. */
async function coderSignIn(username: string, startAt = "/workspaces") {
  oauth.signInAs(username);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${app.url}${startAt}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
  await page.getByRole("button", { name: "Sign in with Coder" }).click();
  // Coder's consent page: the person allows the dashboard.
  await page.waitForURL((u) => u.origin === coder.url, { timeout: 20_000 });
  await page.getByRole("button", { name: "Allow" }).click();
  // Back from Coder: on a page of the dashboard, or on the sign-in page with the callback's error.
  await page.waitForURL(
    (u) =>
      u.origin === app.url &&
      !u.pathname.startsWith("/api/") &&
      (u.pathname !== "/sign-in" || u.searchParams.has("error")),
    { timeout: 20_000 },
  );
  await page.waitForLoadState("networkidle");
  return { page, context };
}

describe("sign in with Coder", () => {
  it("makes a Coder owner an admin, back on the page they asked for", async () => {
    const { page, context } = await coderSignIn("olivia");
    expect(new URL(page.url()).pathname).toBe("/workspaces");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("admin");
    await page.getByRole("link", { name: "Users" }).waitFor();
    await page.screenshot({ path: "screenshots/signin-coder-owner.png" });
    await context.close();
  });

  it("makes a Coder auditor a viewer", async () => {
    const { page, context } = await coderSignIn("arthur", "/");
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("viewer");
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await context.close();
  });

  it("makes any other Coder user a member, who sees only the workspaces they own", async () => {
    const admin = await coderSignIn("olivia");
    const fleet = (await (await admin.page.request.get(`${app.url}/api/v1/workspaces`)).json()) as {
      rows: { id: string; owner: string }[];
    };
    await admin.context.close();
    const own = fleet.rows.filter((r) => r.owner === "bob");
    const others = fleet.rows.filter((r) => r.owner !== "bob");
    expect(own.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(0);

    // The overview is the fleet's: a member starting there lands on their own storage.
    const { page, context } = await coderSignIn("bob", "/");
    await page.waitForURL((u) => u.pathname === "/me");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("member");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "My storage",
      "Your workspaces",
      "Findings",
      "Usage",
    ]);
    await page.goto(`${app.url}/workspaces`, { waitUntil: "networkidle" });
    const table = page.getByTestId("workspaces-table");
    await table.waitFor();
    for (const r of own) await table.locator(`a[href="/workspaces/${r.id}"]`).first().waitFor();
    for (const r of others) expect(await page.locator(`a[href="/workspaces/${r.id}"]`).count()).toBe(0);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: "screenshots/signin-coder-member-390.png", fullPage: true });

    // Someone else's workspace is not found; a fleet page says what a member sees instead.
    await page.goto(`${app.url}/workspaces/${others[0].id}`, { waitUntil: "networkidle" });
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    expect(await page.getByText(others[0].owner).count()).toBe(0);
    const agents = await page.goto(`${app.url}/agents/claude-code`, { waitUntil: "networkidle" });
    expect(agents?.status()).toBe(403);
    await page.getByRole("heading", { name: "Your workspaces only" }).waitFor();
    await page.screenshot({ path: "screenshots/signin-coder-member-forbidden-390.png" });
    // The API and the exports answer the same.
    const csv = await (await page.request.get(`${app.url}/api/v1/export/workspaces.csv`)).text();
    expect(csv.trim().split("\n").length).toBe(own.length + 1);
    for (const r of others) expect(csv).not.toContain(r.id);
    await context.close();
  });

  it("refuses a suspended Coder user with a message", async () => {
    const { page, context } = await coderSignIn("sam");
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await expect(page.getByTestId("sign-in-error").textContent()).resolves.toMatch(/suspended Coder account/);
    await page.setViewportSize({ width: 1440, height: 800 });
    await page.screenshot({ path: "screenshots/signin-coder-suspended-1440.png" });
    await page.setViewportSize({ width: 390, height: 800 });
    await page.screenshot({ path: "screenshots/signin-coder-suspended-390.png" });
    await page.goto(`${app.url}/workspaces`, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await context.close();
  });

  it("is checked by Coder's PKCE: the code exchanged with a wrong verifier is refused", async () => {
    oauth.signInAs("olivia");
    const context = await browser.newContext();
    const page = await context.newPage();
    // The browser's authorization request is taken over: Coder consents, and the code it sends back is exchanged
    // here, without the verifier the dashboard keeps.
    let code = "";
    await page.route(`${coder.url}/oauth2/authorize**`, async (route) => {
      const approved = await consent(route.request().url());
      code = new URL(approved.headers.get("location")!).searchParams.get("code") ?? "";
      await route.abort();
    });
    await page.goto(`${app.url}/sign-in`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByRole("button", { name: "Sign in with Coder" }).click();
    await expect.poll(() => code, { timeout: 10_000 }).not.toBe("");
    const res = await fetch(`${coder.url}/oauth2/tokens`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`,
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirectUri,
        code_verifier: "a-verifier-the-dashboard-never-made-0123456789abcdef",
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_grant" });
    await context.close();
  });

  it("kept the client secret out of the server log", () => {
    expect(app.log()).not.toContain(client.clientSecret);
  });
});
