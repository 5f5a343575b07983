// Sign-in in the browser, against the built app: the way back after sign-in, a viewer's view, the users page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, openPage, signInAs, startHarness, type Harness } from "./harness";

let h: Harness;
const viewer = { email: "vera@example.com", password: "vera-viewer-password" };

beforeAll(async () => {
  // its own dashboard: it fails sign-ins (the limits would lock out the files after it) and reads the whole log
  h = await startHarness({ own: true });
});

afterAll(async () => {
  await h?.close();
});

describe("signing in", () => {
  it("sends a signed-out visit to the sign-in page and back to the page afterwards", async () => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${h.base}/findings?severity=warning`, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/findings?severity=warning");
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("sign-in-error").textContent()).resolves.toMatch(/wrong/);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/findings");
    expect(new URL(page.url()).search).toBe("?severity=warning");
    await expect(page.getByTestId("user-role").textContent()).resolves.toBe("admin");
    await context.close();
  });

  it("goes nowhere but this site after sign-in, whatever the link says", async () => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${h.base}/sign-in?next=${encodeURIComponent("//evil.example/x")}`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((u) => u.pathname !== "/sign-in");
    expect(new URL(page.url()).origin).toBe(h.base);
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
  });

  it("answers API calls without credentials with 401 in the error envelope, not a redirect", async () => {
    const res = await fetch(`${h.base}/api/v1/workspaces`, { redirect: "manual" });
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
  });
});

describe("admins and viewers", () => {
  it("lets an admin create a viewer on the users page", async () => {
    const { page, context, errors } = await openPage(h, "/users");
    const form = page.getByRole("form", { name: "Add a user" });
    await form.getByLabel("Email").fill(viewer.email);
    await form.getByLabel("Name").fill("Vera");
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByLabel(/Password/).fill(viewer.password);
    await form.getByRole("button", { name: "Add user" }).click();
    await page.locator(`[data-testid="users-table"] tr[data-email="${viewer.email}"]`).waitFor();
    const row = page.locator(`[data-testid="users-table"] tr[data-email="${viewer.email}"]`);
    await expect(row.getByLabel(`Role of ${viewer.email}`).inputValue()).resolves.toBe("viewer");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a viewer no admin controls", async () => {
    const asViewer = await signInAs(h.browser, h.base, viewer);
    const findings = await openPage(h, "/findings/rules", { as: asViewer });
    await findings.page.locator('[data-testid="rules-editor"]').waitFor();
    expect(await findings.page.locator('[data-testid="rules-editor"] button', { hasText: "Save" }).count()).toBe(0);
    await expect(findings.page.getByTestId("user-role").textContent()).resolves.toBe("viewer");
    expect(await findings.page.getByRole("link", { name: "Users" }).count()).toBe(0);
    expect(await findings.page.getByRole("link", { name: "Audit" }).count()).toBe(0);
    expect(findings.errors).toEqual([]);
    await findings.context.close();

    const connect = await openPage(h, "/connect", { as: asViewer });
    expect(await connect.page.getByTestId("enrollment-key").count()).toBe(0);
    await connect.page.getByTestId("enrollment-key-hidden").waitFor();
    await connect.context.close();

    const context = await h.browser.newContext({ storageState: asViewer });
    const page = await context.newPage();
    const users = await page.goto(`${h.base}/users`, { waitUntil: "networkidle" });
    expect(users?.status()).toBe(403);
    await page.getByRole("heading", { name: "Admins only" }).waitFor();
    // The admins by name: their addresses are an admin's to see.
    const contacts = await page.getByTestId("admin-contacts").textContent();
    expect(contacts).toContain("Demo admin");
    expect(contacts).not.toContain(ADMIN.email);
    const res = await page.request.put(`${h.base}/api/v1/findings/rules`, { data: { rules: [] } });
    expect(res.status()).toBe(403);
    await context.close();
  });

  it("signs out from the navigation", async () => {
    const { page, context } = await openPage(h, "/", { as: await signInAs(h.browser, h.base, viewer) });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    await page.goto(`${h.base}/workspaces`, { waitUntil: "networkidle" });
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await context.close();
  });

  it("records the socket's address, not one the client claims (no TRUST_PROXY)", async () => {
    const spoofed = await fetch(`${h.base}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: h.base, "x-forwarded-for": "203.0.113.77" },
      body: JSON.stringify({ email: "spoof@example.com", password: "wrong-password" }),
    });
    expect(spoofed.status).toBe(401);
    const context = await h.browser.newContext({ storageState: h.admin });
    const res = await context.request.get(`${h.base}/api/v1/audit?actor=spoof@example.com`);
    const { entries } = (await res.json()) as { entries: { action: string; ip: string }[] };
    expect(entries[0]).toMatchObject({ action: "auth.sign_in_failed", ip: "127.0.0.1" });
    await context.close();
  });

  it("wrote no password into the server log", () => {
    const log = h.serverLog();
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [ADMIN.password, viewer.password]) expect(log).not.toContain(secret);
  });
});
