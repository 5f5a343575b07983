import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chartPaths, openPage, startHarness, type Harness } from "./harness";

let h: Harness;
let workspaceHref = "";

beforeAll(async () => {
  h = await startHarness();
  const { page, context } = await openPage(h, "/workspaces");
  workspaceHref =
    (await page.locator('[data-testid="workspaces-table"] tbody tr a').first().getAttribute("href")) ?? "";
  await context.close();
  expect(workspaceHref).toMatch(/^\/workspaces\/.+/);
});

afterAll(async () => {
  await h?.close();
});

describe("every page", () => {
  const pages = () => ["/", "/workspaces", workspaceHref, "/agents/claude-code", "/findings", "/connect"];
  it("loads with a heading, no error panel and no console errors", async () => {
    for (const path of pages()) {
      const { page, context, errors } = await openPage(h, path);
      await expect(page.locator("h1").first().textContent()).resolves.toBeTruthy();
      expect(await page.locator(".error-panel").count(), `error panel on ${path}`).toBe(0);
      expect(await page.locator('[data-testid="empty-state"]').count(), `empty state on ${path}`).toBe(0);
      expect(errors, `console errors on ${path}`).toEqual([]);
      await context.close();
    }
  });

  it("answers an unknown workspace with the not-found page and a 404", async () => {
    const { context, page } = await h.browser
      .newContext({ storageState: h.admin })
      .then(async (context) => ({ context, page: await context.newPage() }));
    // The layout looks the workspace up before the page streams (loading.tsx), so the status is a real 404.
    const res = await page.goto(`${h.base}/workspaces/no-such-workspace`, { waitUntil: "networkidle" });
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await context.close();
  });
});

describe("charts", () => {
  it("draw the fleet by agent with a legend that hides series", async () => {
    const { page, context } = await openPage(h, "/");
    const before = await chartPaths(page, '[data-chart="stacked-area"]');
    expect(before).toBeGreaterThan(2);
    const areas = page.locator('[data-chart="stacked-area"] svg path.recharts-area-area');
    const shown = await areas.count();
    const legend = page.locator('[data-chart="stacked-area"] .legend-item').first();
    await legend.click();
    await expect(legend.getAttribute("aria-pressed")).resolves.toBe("false");
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-chart="stacked-area"] svg path.recharts-area-area').length < n,
      shown,
    );
    await legend.click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-chart="stacked-area"] svg path.recharts-area-area').length === n,
      shown,
    );
    const ticks = await page.locator('[data-chart="stacked-area"] .recharts-yAxis-tick-labels text').allTextContents();
    expect(ticks.some((t) => /iB$/.test(t.trim()))).toBe(true);
    await context.close();
  });

  it("draw a workspace's usage, volume and ages, and an agent's history and distribution", async () => {
    const ws = await openPage(h, workspaceHref);
    expect(await chartPaths(ws.page, '[data-chart="stacked-area"]')).toBeGreaterThan(0);
    expect(await chartPaths(ws.page, '[data-chart="volume"]')).toBeGreaterThan(0);
    expect(await chartPaths(ws.page, '[data-chart="stacked-bar"]')).toBeGreaterThan(0);
    await ws.context.close();
    const agent = await openPage(h, "/agents/claude-code");
    expect(await chartPaths(agent.page, '[data-chart="stacked-area"]')).toBeGreaterThan(0);
    expect(await chartPaths(agent.page, '[data-chart="histogram"]')).toBeGreaterThan(0);
    await agent.context.close();
  });
});

describe("workspaces table", () => {
  it("filters by owner, and the URL follows", async () => {
    const { page, context, errors } = await openPage(h, "/workspaces");
    const rows = page.locator('[data-testid="workspaces-table"] tbody tr');
    const total = await page.getByTestId("row-count").textContent();
    const owner = (await rows.first().locator("td").nth(1).textContent())!.trim();
    await page.getByLabel("Filter by owner").fill(owner);
    await page.waitForURL((u) => u.searchParams.get("owner") === owner);
    await page.waitForFunction((t) => document.querySelector('[data-testid="row-count"]')?.textContent !== t, total);
    const owners = await rows.locator("td:nth-child(2)").allTextContents();
    expect(owners.length).toBeGreaterThan(0);
    expect(new Set(owners.map((o) => o.trim()))).toEqual(new Set([owner]));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("sorts from a header button, pages, and keeps both across a reload", async () => {
    const { page, context } = await openPage(h, "/workspaces");
    await page.getByRole("button", { name: /^Workspace/ }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "name");
    // Pages once the sorted rows are shown, as a person would: on a loaded machine (three suites at once) a click
    // made while the sort was still being applied once left the URL without its page.
    await page.locator('th[aria-sort="ascending"]', { hasText: "Workspace" }).waitFor();
    await page.waitForFunction(() => document.querySelector(".table-wrap")?.getAttribute("aria-busy") === "false");
    await page.getByRole("button", { name: "Next →" }).click();
    await page.waitForURL((u) => u.searchParams.get("page") === "2");
    // Wait for page 2's own rows: the count changes at once, the previous rows stay until the fetch ends.
    await page.waitForFunction(
      () =>
        /^51–/.test(document.querySelector('[data-testid="row-count"]')?.textContent ?? "") &&
        document.querySelector(".table-wrap")?.getAttribute("aria-busy") === "false",
    );
    const firstName = await page.locator('[data-testid="workspaces-table"] tbody tr td a').first().textContent();
    await page.reload({ waitUntil: "networkidle" });
    await expect(page.locator('th[aria-sort="ascending"]').textContent()).resolves.toContain("Workspace");
    await expect(page.locator('[data-testid="workspaces-table"] tbody tr td a').first().textContent()).resolves.toBe(
      firstName,
    );
    await expect(page.getByText(/^Page 2 of/).count()).resolves.toBe(1);
    await context.close();
  });

  it("shows an API failure as an error panel with a retry, never as an empty table", async () => {
    const { page, context } = await openPage(h, "/workspaces");
    await page.route("**/api/v1/workspaces?*", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "database on fire" } }),
      }),
    );
    await page.getByLabel("Search workspaces").fill("zz");
    const alert = page.locator(".error-panel");
    await alert.waitFor({ timeout: 20_000 });
    await expect(alert.textContent()).resolves.toContain("database on fire");
    await page.unroute("**/api/v1/workspaces?*");
    await page.getByRole("button", { name: "Retry" }).click();
    await alert.waitFor({ state: "detached" });
    await context.close();
  });
});

describe("navigation and view state", () => {
  it("drills down from the overview to a workspace and on to an agent", async () => {
    const { page, context, errors } = await openPage(h, "/");
    await page.locator('section[aria-label="Top workspaces"] ul a').first().click();
    await page.waitForURL(/\/workspaces\/[^/?]+$/);
    await page.locator('[data-testid="roots-table"]').waitFor();
    await page.locator('[data-testid="roots-table"] a[href^="/agents/"]').first().click();
    await page.waitForURL(/\/agents\/[^/?]+$/);
    await page.locator('[data-testid="agent-stats"]').waitFor();
    expect(await chartPaths(page, '[data-chart="stacked-area"]')).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps the chart range in the URL across a reload", async () => {
    const { page, context } = await openPage(h, "/");
    await page.getByRole("button", { name: "7 d" }).click();
    await page.waitForURL((u) => u.searchParams.get("range") === "7d");
    await page.reload({ waitUntil: "networkidle" });
    await expect(page.getByRole("button", { name: "7 d" }).getAttribute("aria-pressed")).resolves.toBe("true");
    const tickLabels = page.locator('[data-chart="stacked-area"] .recharts-xAxis-tick-labels text');
    await tickLabels.first().waitFor();
    const ticks = await tickLabels.count();
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThanOrEqual(7);
    await context.close();
  });

  it("switches the theme from the header toggle and remembers it", async () => {
    const { page, context } = await openPage(h, "/", { colorScheme: "light" });
    const theme = () => page.evaluate(() => document.documentElement.getAttribute("data-theme"));
    expect(await theme()).toBe("light");
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lightBg = await bg();
    await page.getByRole("button", { name: "Toggle light and dark theme" }).click();
    await page.waitForFunction(() => document.documentElement.getAttribute("data-theme") === "dark");
    expect(await bg()).not.toBe(lightBg);
    await page.reload({ waitUntil: "networkidle" });
    expect(await theme()).toBe("dark");
    await context.close();
  });
});

describe("full volumes", () => {
  type Row = {
    id: string;
    volume: { usePercent: number; full: boolean; inodesFull: boolean } | null;
    daysUntilFull: number | null;
  };
  it("come first when the workspaces table is sorted by 'Full in', then the soonest to fill, then '—'", async () => {
    const { page, context, errors } = await openPage(h, "/workspaces?sort=daysUntilFull&dir=asc&pageSize=100");
    const res = await page.request.get(`${h.base}/api/v1/workspaces?sort=daysUntilFull&dir=asc&pageSize=200`);
    const rows = ((await res.json()) as { rows: Row[] }).rows;
    const rank = (r: Row) => (r.volume?.full || r.volume?.inodesFull ? 0 : r.daysUntilFull === null ? 2 : 1);
    const ranks = rows.map(rank);
    expect(ranks.filter((r) => r === 0).length, "the demo fleet has full volumes").toBeGreaterThan(0);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const soon = rows.filter((r) => rank(r) === 1).map((r) => r.daysUntilFull!);
    expect(soon).toEqual([...soon].sort((a, b) => a - b));
    // The table shows them so: its first rows say full (or out of inodes, or what is left past the threshold).
    const cells = page.locator('[data-testid="workspaces-table"] tbody tr');
    const first = await cells.first().textContent();
    expect(first).toMatch(/full|no inodes|iB left|inodes left/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("are listed first on the overview and shown as full, with df's Use%, on their page", async () => {
    const { page, context, errors } = await openPage(h, "/");
    const res = await page.request.get(`${h.base}/api/v1/workspaces?sort=volumeUsed&dir=desc&pageSize=200`);
    const rows = ((await res.json()) as { rows: Row[] }).rows;
    const full = rows.filter((r) => r.volume?.full || r.volume?.inodesFull);
    expect(full.length, "the demo fleet has full volumes").toBeGreaterThan(0);

    const items = page.locator('[data-testid="volumes-at-risk"] li');
    const badges = await items.locator(".badge").allTextContents();
    // Every full volume comes before any that is only forecast to fill: "full" with no space left, else what is left.
    const isFull = (b: string) => b === "full" || b === "no inodes" || / left$/.test(b);
    const fullCount = badges.filter(isFull).length;
    expect(fullCount).toBe(Math.min(full.length, badges.length));
    expect(badges.slice(0, fullCount).every(isFull)).toBe(true);
    const href = (await items.first().locator("a").getAttribute("href"))!;
    const id = decodeURIComponent(href.split("/").pop()!);
    const expected = full.find((r) => r.id === id)!;
    expect(expected, "the first listed volume is a full one").toBeTruthy();
    expect(errors).toEqual([]);
    await context.close();

    const ws = await openPage(h, href);
    await ws.page.locator('[data-testid="volume-full-badge"]').waitFor();
    await expect(ws.page.locator('[data-testid="volume-use-percent"]').textContent()).resolves.toBe(
      `${expected.volume!.usePercent}%`,
    );
    expect(ws.errors).toEqual([]);
    await ws.context.close();
  });
});
