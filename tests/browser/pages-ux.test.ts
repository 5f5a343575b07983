// The answers an admin comes for, on a desk and on a phone: a real run asks once more and sends nothing before
// it is confirmed; unknown ids answer 404 with the navigation kept; a viewer's refusal keeps the header and the
// rules read as read-only; at 390 px a workspace row keeps its name, Total and Use% on screen and no figure or
// word breaks inside itself. Screenshots at 1440 and 390 px, as admin and viewer, go to screenshots/pages-ux-*.png.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytesDelta } from "@/lib/format/bytes";
import { ADMIN, signInAs, startHarness, type Harness, type StorageState } from "./harness";

const SHOTS = "screenshots";
const VIEWER = { email: "pages-ux-viewer@example.com", password: "pages-ux-viewer-password" };
let h: Harness;
let admin: StorageState;
let viewer: StorageState;
let workspaceHref = "";

async function open(
  as: StorageState,
  pathname: string,
  width = 1440,
): Promise<{ page: Page; context: BrowserContext; status: number; errors: string[] }> {
  const context = await h.browser.newContext({ viewport: { width, height: 900 }, storageState: as });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const res = await page.goto(`${h.site}${pathname}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
  return { page, context, status: res?.status() ?? 0, errors };
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `pages-ux-${name}.png`), fullPage: true });
}

/** Both widths of a page, for a reader to look at. */
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The header's navigation is on the page (the dashboard's shell). */
async function expectNavigation(page: Page) {
  await expect(page.locator("header.header a.brand").count()).resolves.toBe(1);
  await expect(
    page.locator("header.header").getByRole("link", { name: "Workspaces", exact: true }).count(),
  ).resolves.toBeGreaterThan(0);
}

beforeAll(async () => {
  h = await startHarness();
  admin = await signInAs(h.browser, h.site, ADMIN);
  const context = await h.browser.newContext({ storageState: admin });
  const res = await context.request.post(`${h.site}/api/v1/users`, { data: { ...VIEWER, role: "viewer" } });
  expect([201, 409], await res.text()).toContain(res.status());
  await context.close();
  viewer = await signInAs(h.browser, h.site, VIEWER);
  const list = await open(admin, "/workspaces");
  workspaceHref =
    (await list.page.locator('[data-testid="workspaces-table"] tbody tr a').first().getAttribute("href")) ?? "";
  await list.context.close();
  expect(workspaceHref).toMatch(/^\/workspaces\/.+/);
});

afterAll(async () => {
  await h?.close();
});

describe("a real run asks once more", () => {
  it("opens a confirmation with the figure and the scope, and posts nothing until it is confirmed", async () => {
    const { page, context, errors } = await open(admin, "/cleanup/new?recipe=claude-code-sessions");
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/cleanup/runs") posts.push(r.url());
    });
    await page.getByTestId("preview-total").waitFor();
    await page.waitForFunction(
      () => !document.querySelector<HTMLButtonElement>('[data-testid="confirm-run"]')?.disabled,
    );
    const label = ((await page.getByTestId("confirm-run").textContent()) ?? "").trim();
    expect(label).toMatch(/^(Delete|Trash) [\d.]+ [KMGT]?i?B from [\d,]+ workspaces?$/);
    await page.getByTestId("confirm-run").click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByRole("heading").textContent()).resolves.toBe(`${label}?`);
    await expect(dialog.textContent()).resolves.toContain("Scope: whole fleet");
    await shots(page, "confirm-run");
    expect(posts).toEqual([]);

    // Over 10 GiB or 10 workspaces: the button waits for the figure, typed.
    const figure = /^\S+ ([\d.]+ [KMGT]?i?B) from/.exec(label)![1];
    const final = dialog.getByTestId("confirm-run-final");
    const typed = dialog.getByRole("textbox");
    if ((await typed.count()) > 0) {
      await expect(final.isDisabled()).resolves.toBe(true);
      await typed.fill("1 B");
      await expect(final.isDisabled()).resolves.toBe(true);
      await typed.fill(figure);
    }
    await expect(final.isDisabled()).resolves.toBe(false);
    // Going back sends nothing either.
    await dialog.getByRole("button", { name: "Go back" }).click();
    await expect(dialog.count()).resolves.toBe(0);
    expect(posts).toEqual([]);

    // The same cleanup as a dry run is sent on one click (it changes nothing); the real one then warns of it.
    await page.getByLabel(/^Dry run/).check();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="confirm-run"]')?.textContent?.startsWith("Dry run over") &&
        !document.querySelector<HTMLButtonElement>('[data-testid="confirm-run"]')?.disabled,
    );
    await page.getByTestId("confirm-run").click();
    await page.waitForURL((u) => /^\/cleanup\/runs\/[0-9a-f-]{36}$/.test(u.pathname));
    expect(posts).toHaveLength(1);
    const dryRunPath = new URL(page.url()).pathname;

    // "Promote this dry run" asks with the dry run's own figure, and sends nothing when the admin goes back.
    await page.getByTestId("promote-dry-run").click();
    await expect(page.getByTestId("confirm-dialog").getByRole("heading").textContent()).resolves.toBe(`${label}?`);
    await page.getByTestId("confirm-dialog").getByRole("button", { name: "Go back" }).click();
    expect(posts).toHaveLength(1);

    const again = await open(admin, "/cleanup/new?recipe=claude-code-sessions");
    await again.page.getByTestId("overlap-warning").waitFor();
    await expect(again.page.getByTestId("overlap-warning").locator("a").first().getAttribute("href")).resolves.toBe(
      dryRunPath,
    );
    await again.context.close();

    // Cancelled, it says so: no job ran, not "finished N of N".
    await page.getByRole("button", { name: "Cancel run" }).click();
    await page.locator('[data-testid="run-progress"]').filter({ hasText: "Jobs run before the cancel0" }).waitFor();
    await expect(page.locator(".page-head .badge").first().textContent()).resolves.toBe("cancelled");
    await shots(page, "cancelled-run");
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("unknown ids", () => {
  it("answer 404 with the not-found page and the navigation; known ones 200", async () => {
    const unknown = [
      "/workspaces/no-such-workspace",
      "/agents/no-such-agent",
      "/cleanup/runs/00000000-0000-4000-8000-000000000000",
      "/cleanup/runs/not-a-run",
      "/cleanup/policies/00000000-0000-4000-8000-000000000000",
    ];
    for (const p of unknown) {
      const { page, context, status } = await open(admin, p);
      expect(status, p).toBe(404);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
      await expectNavigation(page);
      if (p.startsWith("/workspaces")) await shots(page, "not-found");
      await context.close();
    }
    for (const p of [workspaceHref, "/agents/claude-code", "/cleanup/policies/new"]) {
      const { context, status } = await open(admin, p);
      expect(status, p).toBe(200);
      await context.close();
    }
  });
});

describe("a viewer", () => {
  it("sees 'Admins only' with the header and navigation, and the rules as read-only", async () => {
    const refused = await open(viewer, "/cleanup/new?recipe=codex-rollouts");
    expect(refused.status).toBe(403);
    await refused.page.getByRole("heading", { name: "Admins only" }).waitFor();
    await expectNavigation(refused.page);
    await shots(refused.page, "viewer-admins-only");
    await refused.context.close();

    const rules = await open(viewer, "/findings/rules");
    await rules.page.getByTestId("rules-read-only").waitFor();
    const input = rules.page.locator('[data-testid="rules-editor"] input[type="number"]').first();
    await expect(input.isDisabled()).resolves.toBe(true);
    // Read-only looks it: no field border to type into.
    await expect(input.evaluate((e) => getComputedStyle(e).borderTopColor)).resolves.toBe("rgba(0, 0, 0, 0)");
    await shots(rules.page, "viewer-rules");
    expect(rules.errors).toEqual([]);
    await rules.context.close();
  });
});

/**
 * Words and figures that a line break cuts in two, in `main`: each word (a run of characters without spaces) is
 * measured with a Range; one cut in two has line boxes at two heights. Code, and tokens longer than a figure or
 * a word (paths, setting names over 16 characters), may wrap where they must.
 */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.querySelector("main")!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement!;
      if (el.closest("code, pre, svg, .recharts-wrapper, [hidden]") || el.offsetParent === null) continue;
      const text = node.textContent ?? "";
      // a word ends at a space, and may break after a hyphen or a slash ("claude-", "code:data")
      for (const m of text.matchAll(/[^\s\-/]+[-/]?/g)) {
        if (m[0].length > 16) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
    return out;
  });
}

describe("at 390 px", () => {
  it("keeps a workspace row's name, Total, Use% and Full in on screen", async () => {
    const { page, context } = await open(admin, "/workspaces", 390);
    const row = page.locator('[data-testid="workspaces-table"] tbody tr').first();
    const cells = await row.locator("td").evaluateAll((tds) =>
      tds.map((td) => {
        const r = td.getBoundingClientRect();
        return { text: td.textContent?.trim() ?? "", left: r.left, right: r.right };
      }),
    );
    const headers = await page
      .locator('[data-testid="workspaces-table"] thead th')
      .evaluateAll((ths) => ths.map((th) => th.textContent?.trim() ?? ""));
    for (const name of ["Workspace", "Total", "Use%", "Full in"]) {
      const cell = cells[headers.findIndex((t) => t.startsWith(name))];
      expect(cell, name).toBeDefined();
      expect(cell.left, name).toBeGreaterThanOrEqual(0);
      expect(cell.right, name).toBeLessThanOrEqual(390);
    }
    await shots(page, "workspaces");
    await context.close();
  });

  it("breaks no figure or word over two lines on the main pages", async () => {
    for (const p of [
      "/",
      "/workspaces",
      workspaceHref,
      "/volumes?days=90",
      "/agents",
      "/agents/claude-code",
      "/cleanup",
      "/findings",
      "/findings?rule=root-oversize",
    ]) {
      const { page, context } = await open(admin, p, 390);
      expect(await brokenWords(page), p).toEqual([]);
      if (p === "/") await shots(page, "overview");
      if (p === workspaceHref) await shots(page, "workspace");
      if (p === "/agents/claude-code") await shots(page, "agent");
      if (p === "/agents") await shots(page, "agents");
      if (p === "/findings?rule=root-oversize") await shots(page, "findings-by-template");
      await context.close();
    }
    const v = await open(viewer, "/", 390);
    await shots(v.page, "viewer-overview");
    await v.context.close();
  });
});

describe("volumes at risk", () => {
  /** A fleet of its own, large enough for 12 full volumes (every 25th demo workspace's disk is full). */
  let big: Harness;
  beforeAll(async () => {
    big = await startHarness({ own: true, workspaces: 300 });
  });
  afterAll(async () => {
    await big?.close();
  });

  it("lists every one, with the count, from the overview's '+N more', fewest days first", async () => {
    const context = await big.browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: big.admin });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${big.base}/`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    const listed = await page.locator('[data-testid="volumes-at-risk"] li').count();
    const more = page.getByRole("link", { name: /^\+\d+ more$/ });
    const moreText = (await more.textContent()) ?? "";
    await more.click();
    await page.waitForURL((u) => u.pathname === "/volumes");
    const count = (await page.getByTestId("at-risk-count").textContent()) ?? "";
    const m = /^(\d+) volumes full or filling within (\d+) days?: (\d+) full/.exec(count);
    expect(m, count).not.toBeNull();
    const [total, full] = [Number(m![1]), Number(m![3])];
    expect(full).toBeGreaterThan(10);
    expect(moreText).toBe(`+${total - listed} more`);
    // Every one of them, a page at a time.
    const rows = page.locator('[data-testid="at-risk"] tbody tr');
    while ((await rows.count()) < total) {
      const before = await rows.count();
      await page.getByRole("button", { name: "Show more" }).click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="at-risk"] tbody tr').length > n,
        before,
      );
    }
    await expect(rows.count()).resolves.toBe(total);
    // Full ones first (no forecast in days), then the filling ones, soonest first.
    const fullIn = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll("td")[1]?.textContent ?? ""));
    const firstFilling = fullIn.findIndex((t) => /day/.test(t));
    expect(firstFilling === -1 ? fullIn.length : firstFilling).toBe(full);
    await shots(page, "at-risk");
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});

describe("growth as a figure", () => {
  it("states an agent's change over the picked range, equal to its chart's first and last points", async () => {
    const { page, context, errors } = await open(admin, "/agents/claude-code?range=7d");
    const stat = page.getByTestId("agent-range-change");
    const expected = async (range: string) => {
      const res = await page.request.get(`${h.site}/api/v1/agents/claude-code?range=${range}`);
      const series = ((await res.json()) as { series: { day: string; bytes: number }[] }).series;
      const [first, last] = [series[0], series.at(-1)!];
      return { value: formatBytesDelta(last.bytes - first.bytes), first: first.day, last: last.day };
    };
    const seen: string[] = [];
    for (const [range, label] of [
      ["7d", "7 d"],
      ["90d", "90 d"],
    ] as const) {
      if (range !== "7d")
        await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: label }).click();
      await page.waitForURL((u) => u.searchParams.get("range") === range);
      const want = await expected(range);
      await stat
        .locator(".stat-sub")
        .filter({ hasText: `on ${want.first} to` })
        .waitFor();
      await expect(stat.locator(".stat-value").textContent()).resolves.toBe(want.value);
      await expect(stat.locator(".stat-sub").textContent()).resolves.toContain(`on ${want.last}`);
      seen.push(`${want.value} from ${want.first}`);
    }
    // The figure follows the picker: another baseline day, another figure.
    expect(new Set(seen).size).toBe(2);
    await shots(page, "agent-growth");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("states the fleet's change over the picked range on the overview, equal to its chart's ends", async () => {
    for (const range of ["7d", "90d"]) {
      const { page, context } = await open(admin, `/?range=${range}`);
      const res = await page.request.get(`${h.site}/api/v1/fleet/overview?range=${range}`);
      const points = ((await res.json()) as { series: { points: { day: string; total: number }[] } }).series.points;
      const stat = page.getByTestId("fleet-range-change");
      await expect(stat.locator(".stat-value").textContent()).resolves.toBe(
        formatBytesDelta(points.at(-1)!.total - points[0].total),
      );
      await expect(stat.locator(".stat-sub").textContent()).resolves.toContain(`on ${points[0].day} to`);
      await context.close();
    }
  });
});
