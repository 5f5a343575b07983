// From the problem to the fix, in the browser: a full disk's finding offers "Free space here", which previews
// every recipe on that workspace and queues the run picked; the workspace page empties its trash after saying
// what that does; the run form takes workspaces by name and a custom target, and shows the server's refusal of
// a glob that could leave its root. Screenshots at 1440 and 390 px go to screenshots/cleanup-ui-*.png.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, signedInOnSite, startHarness, type Harness } from "./harness";

const SHOTS = "screenshots";
let h: Harness;
let admin: BrowserContext;
/** The full workspace the first test found, and what the dashboard calls it. */
const full = { id: "", label: "" };

async function open(pathname: string): Promise<{ page: Page; errors: string[] }> {
  const page = await admin.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${h.site}${pathname}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return { page, errors };
}

/** The page as a desktop and a phone show it. */
async function shots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: path.join(SHOTS, `cleanup-ui-${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SHOTS, `cleanup-ui-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** A queued run's page: its jobs' workspaces as the table names them. */
async function queuedWorkspaces(page: Page): Promise<string[]> {
  await page.waitForURL((u) => /^\/cleanup\/runs\/[0-9a-f-]{36}$/.test(u.pathname));
  await page.locator('[data-testid="run-jobs"] tbody tr[data-state="queued"]').first().waitFor();
  return page
    .locator('[data-testid="run-jobs"] tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.querySelector("td")?.textContent?.trim() ?? ""));
}

beforeAll(async () => {
  h = await startHarness();
  admin = await signedInOnSite(h, ADMIN);
});

afterAll(async () => {
  await admin?.close();
  await h?.close();
});

describe("from the problem to the fix", () => {
  it("goes from a volume-full finding through 'Free space here' to a run queued for that workspace", async () => {
    const { page, errors } = await open("/findings?rule=volume-full");
    const finding = page
      .getByTestId("finding")
      .filter({ has: page.getByTestId("free-space-link") })
      .first();
    full.label = ((await finding.locator("a.cell-main").textContent()) ?? "").trim();
    await finding.getByTestId("free-space-link").click();
    await page.waitForURL((u) => u.pathname === "/cleanup/new" && u.searchParams.get("free") === "1");
    full.id = new URL(page.url()).searchParams.get("workspace")!;
    await page.getByRole("heading", { name: "Free space", exact: true }).waitFor();
    await page.getByText(`What would free space on ${full.label}`).waitFor();

    // Every recipe is previewed (twice); those that free something are listed, largest first.
    const table = page.getByTestId("free-space");
    await page.waitForFunction(() => !document.body.textContent?.includes("Previewing"), undefined, {
      timeout: 30_000,
    });
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(0);
    await expect(page.getByTestId("confirm-free").textContent()).resolves.toBe("Pick what to free");
    await expect(page.getByTestId("confirm-free").isDisabled()).resolves.toBe(true);
    await shots(page, "free-space");

    // Pick the largest recipe at its own age: the button states that preview's figure.
    const first = rows.first();
    const figure = ((await first.locator("td.num").first().locator("strong").textContent()) ?? "").trim();
    await first.locator('td.num input[type="checkbox"]').first().check();
    const label = (await page.getByTestId("confirm-free").textContent()) ?? "";
    expect(label).toBe(
      `${label.startsWith("Trash") ? "Trash" : "Delete"} ${figure.replace(/^≈ /, "")} on ${full.label}`,
    );
    // The second step: a dialog with the figure and the workspace, and nothing sent until it is confirmed.
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/cleanup/runs") posts.push(r.url());
    });
    await page.getByTestId("confirm-free").click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByRole("heading").textContent()).resolves.toBe(`${label}?`);
    await expect(dialog.textContent()).resolves.toContain(`Scope: ${full.label}`);
    const final = dialog.getByTestId("confirm-run-final");
    const typed = dialog.getByRole("textbox");
    if ((await typed.count()) > 0) {
      // Over 10 GiB: the workspace's name, typed, before the button answers.
      await expect(final.isDisabled()).resolves.toBe(true);
      await typed.fill((await dialog.locator("label code").textContent())!);
    }
    expect(posts).toEqual([]);
    await final.click();
    await expect(queuedWorkspaces(page)).resolves.toEqual([full.label]);
    expect(posts).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("offers the same link on the full workspace's page, and empties its trash after saying what that does", async () => {
    const { page, errors } = await open(`/workspaces/${encodeURIComponent(full.id)}`);
    await expect(page.locator(".page-head").getByTestId("free-space-link").getAttribute("href")).resolves.toBe(
      `/cleanup/new?workspace=${encodeURIComponent(full.id)}&free=1`,
    );
    const trash = page.getByTestId("empty-trash");
    await trash.getByRole("button", { name: "Empty the trash now" }).click();
    const ask = trash.getByRole("group", { name: "Confirm emptying the trash" });
    await expect(ask.textContent()).resolves.toMatch(/removes every unit in it for good/);
    await shots(page, "workspace-trash");
    await ask.getByRole("button", { name: /^Empty the trash for good/ }).click();
    await trash.getByTestId("empty-trash-queued").getByRole("link").click();
    await page.getByRole("heading", { name: "Empty the trash" }).waitFor();
    await expect(queuedWorkspaces(page)).resolves.toEqual([full.label]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("takes workspaces by name and previews a custom target, showing the refusal of a glob that leaves its root", async () => {
    const { page, errors } = await open(`/cleanup/new?workspace=${encodeURIComponent(full.id)}`);
    const scope = page.getByLabel("Scope values");
    await expect(scope.inputValue()).resolves.toBe(full.label); // a name, not the id it was linked with
    await page.getByTestId("preview-total").waitFor();

    await scope.fill("no-such-workspace");
    await page.getByTestId("draft-problem").filter({ hasText: "No workspace is named “no-such-workspace”." }).waitFor();
    await expect(page.getByTestId("confirm-run").isDisabled()).resolves.toBe(true);
    await scope.fill(full.label.split("/")[1]);
    await page.getByTestId("preview-total").waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="draft-problem"]'));

    const roots = await page.evaluate(async (id) => {
      const r = await fetch(`/api/v1/workspaces/${encodeURIComponent(id)}`);
      return ((await r.json()) as { roots: { key: string; kind: string }[] }).roots;
    }, full.id);
    // a root whose units may be trashed: not the trash, a leftover nor a package cache (only ever deleted)
    const root = roots.find((r) => !["trash", "leftover", "package-cache"].includes(r.kind))!;
    await page.getByLabel("Recipe").selectOption("custom");
    await page.getByLabel("Custom root").fill(root.key);
    await page.getByLabel("Custom glob").fill("../outside/*");
    await page.getByTestId("refusal").filter({ hasText: "must stay inside the root" }).waitFor();
    await expect(page.getByTestId("confirm-run").textContent()).resolves.toBe("Preview first");

    await page.getByLabel("Custom glob").fill("cache/**/*.tmp");
    await page.getByTestId("preview-total").filter({ hasText: "custom target has no usage in reports" }).waitFor();
    await expect(page.getByTestId("refusal").count()).resolves.toBe(0);
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid="confirm-run"]')?.disabled,
    );
    await expect(page.getByTestId("confirm-run").textContent()).resolves.toBe(
      "Trash what matches in 1 workspace (sizes come with the results)",
    );
    await shots(page, "custom-target");

    // inside a package cache's root: only Delete, and the form says why
    await page.getByLabel("Custom root").fill("package-cache:npm");
    await page.getByTestId("delete-only").filter({ hasText: "Inside a package cache" }).waitFor();
    await expect(page.getByLabel("Action").locator("option").allTextContents()).resolves.toEqual(["Delete"]);
    await expect(page.getByLabel("Action").inputValue()).resolves.toBe("delete");
    await shots(page, "custom-target-in-cache");
    await page.getByLabel("Custom root").fill(root.key);
    await expect(page.getByLabel("Action").locator("option").count()).resolves.toBe(2);
    expect(errors).toEqual([]);
    await page.close();
  });
});
