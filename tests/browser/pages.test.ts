// Every page at a desktop's and a phone's width, as an admin and as a viewer: none scrolls sideways, logs a
// console error, or says "Not found" while it exists; every size on it gives its exact bytes on hover; a viewer on
// an admin page gets the 403 page that says whom to ask. Screenshots of the overview, a workspace and the
// findings at both widths go to screenshots/ (git-ignored), to be looked at. Then what the walk found missing:
// the phone's navigation, retention edited on its page, and the server's log.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactBytes, formatBytes, formatBytesDelta, formatRate } from "@/lib/format/bytes";
import { signInAs, startHarness, type Harness } from "./harness";
import { makePageObjects, pageObjects, PAGES, postAsAdmin, type PageSpec } from "./page-list";

type StorageState = BrowserContextOptions["storageState"];
type Role = "admin" | "viewer";

const SHOTS = "screenshots";
const WIDTHS = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const VIEWER = { email: "pages-viewer@example.com", password: "pages-viewer-password" };

let h: Harness;
let viewer: StorageState;

/**
 * "By root": a Clean up link, or the lack of one, does not change a row's height. Measured on the line it sits on
 * (the root's own, first on a phone): the figures under it may wrap on a phone as their text needs, and a root with
 * a badge (orphaned, AgentAPI leftovers) may take a second line for it.
 */
async function evenRootRows(page: Page): Promise<string[]> {
  const rows = await page
    .getByTestId("roots-table")
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs
        .filter((r) => !r.querySelector("td:first-child .badge"))
        .map((r) => {
          const cells = [r.querySelector("td:first-child"), r.querySelector("td.actions")].filter((c) => c !== null);
          const rects = cells.map((c) => c.getBoundingClientRect());
          const line = Math.max(...rects.map((x) => x.bottom)) - Math.min(...rects.map((x) => x.top));
          return { line, text: (r.querySelector("td:first-child") as HTMLElement).innerText.trim() };
        }),
    );
  const lines = rows.map((r) => r.line);
  return Math.max(...lines) - Math.min(...lines) > 1
    ? [
        `"By root" rows' first lines of uneven heights: ${rows.map((r) => `${r.line.toFixed(1)} px (${r.text})`).join("; ")}`,
      ]
    : [];
}

/** An agent's kinds of root: one kind said under the headline, several in a table of their own (no empty panel). */
async function kindsOfRoot(page: Page): Promise<string[]> {
  const panel = await page.getByRole("region", { name: "By kind of root" }).count();
  const rows = await page.getByTestId("agent-kinds").locator("tbody tr").count();
  const sub = (await page.getByTestId("agent-stats").locator(".stat-sub").first().textContent()) ?? "";
  if (panel) return rows > 1 ? [] : [`"By kind of root" holds ${rows} row`];
  return /^\d+ roots?, all /.test(sub) ? [] : [`one kind of root, but the headline says "${sub}"`];
}

/** What a page must hold beside what every page must, by its name in PAGES: the failures. */
const CHECKS: Record<string, (page: Page, role: Role) => Promise<string[]>> = {
  "a workspace": evenRootRows,
  "Claude Code": kindsOfRoot,
  Codex: kindsOfRoot,
};

beforeAll(async () => {
  // A dashboard of its own: the viewer, run and policy made here stay out of the other files' figures, and its
  // log is read at the end.
  h = await startHarness({ own: true });
  // A check under a name no page has would never run.
  expect(Object.keys(CHECKS).filter((name) => !PAGES.some((p) => p.name === name))).toEqual([]);
  await makePageObjects(h);
  await postAsAdmin(h, "/api/v1/users", { email: VIEWER.email, role: "viewer", password: VIEWER.password }, true);
  viewer = await signInAs(h.browser, h.base, VIEWER);
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await h?.close();
});

/** The elements that reach past the right edge of the window, named for the failure message (deepest first). */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const name = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.getAttribute("data-testid") ? `[data-testid=${e.getAttribute("data-testid")}]` : ""}${e.classList.length ? `.${[...e.classList].join(".")}` : ""}`;
    return [...document.body.querySelectorAll("*")]
      .filter(
        (e) =>
          e.getBoundingClientRect().right > width + 0.5 &&
          ![...e.children].some((c) => c.getBoundingClientRect().right > width + 0.5),
      )
      .slice(0, 5)
      .map(
        (e) =>
          `${name(e)} (right edge ${Math.round(e.getBoundingClientRect().right)} px): ${(e.textContent ?? "").trim().slice(0, 60)}`,
      );
  });
}

/** Sizes on the page ("1.17 GiB", "+181 MiB/day", "≈ 5.4 GiB") with no exact bytes to hover on (charts' axes aside). */
function sizesWithoutTitle(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const size = /^[+−-]?(≈ )?\d[\d.,]* (B|KiB|MiB|GiB|TiB|PiB)(\/day)?$/;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const missing: string[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? "").trim();
      const el = n.parentElement;
      if (!el || !size.test(text) || el.closest("svg") || el.closest("[title]")) continue;
      // Off the page: a chart library's text-measuring span, not a figure anyone reads.
      if (el.getBoundingClientRect().bottom + window.scrollY < 0 || !el.checkVisibility()) continue;
      missing.push(
        `${text} in ${el.closest("[data-testid]")?.getAttribute("data-testid") ?? el.tagName.toLowerCase()}`,
      );
    }
    return missing;
  });
}

/**
 * Every size shown with its exact bytes (a title of "N bytes" or "N bytes a day"), as [text, title, lines]:
 * `lines` is how many lines of the page the figure takes.
 */
function sizesWithBytes(page: Page): Promise<[string, string, number][]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("[title]")]
      .filter((e) => /^-?[\d,]+ bytes( a day)?$/.test(e.getAttribute("title") ?? "") && e.checkVisibility())
      .map((e) => {
        const lines = new Set([...e.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        return [(e.textContent ?? "").trim(), e.getAttribute("title")!, lines] as [string, string, number];
      }),
  );
}

/**
 * The figures that are not their exact bytes through the one formatter (lib/format/bytes.ts), or that break
 * across lines ("14.4" above "GiB").
 */
function offTheirBytes(sizes: [string, string, number][]): string[] {
  return sizes.flatMap(([text, title, lines]) => {
    const n = Number(title.replace(/ bytes( a day)?$/, "").replaceAll(",", ""));
    const shown = text.replace(/^≈ /, "");
    const ok = title.endsWith(" a day")
      ? shown === formatRate(n)
      : shown === formatBytes(n) || shown === formatBytesDelta(n);
    return [...(ok ? [] : [`"${text}" for ${title}`]), ...(lines > 1 ? [`"${text}" broken over ${lines} lines`] : [])];
  });
}

/**
 * Tables a CSV does not go with: the retention form's fields, and a cleanup's preview before it is a run (the
 * run's own CSV holds its jobs once it is made).
 */
const NO_CSV = ["retention-table", "preview-workspaces", "free-space"];

/** The tables (by data-testid) with no CSV link in their panel's head (or the page's, for its one untitled panel). */
function tablesWithoutCsv(page: Page): Promise<string[]> {
  return page.evaluate(
    (skip) =>
      [...document.querySelectorAll("table")]
        .filter((t) => t.checkVisibility() && !skip.includes(t.getAttribute("data-testid") ?? ""))
        .filter((t) => {
          const panel = t.closest("section.panel");
          if (panel?.querySelector(".panel-head [data-testid=export-link]")) return false;
          // A page's one untitled table (the workspaces list) has its CSV in the page's head.
          return panel?.querySelector(".panel-head") || !document.querySelector(".page-head [data-testid=export-link]");
        })
        .map((t) => t.getAttribute("data-testid") ?? t.closest("section")?.getAttribute("aria-label") ?? "a table"),
    NO_CSV,
  );
}

/**
 * Buttons whose label breaks over lines ("Clean" above "up" in a narrow cell), or that reach past the stacked
 * table or the panel they are in (cut off there, where the page itself does not scroll).
 */
function brokenButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll(".button, button")]
      .filter((b) => b.checkVisibility())
      .filter((b) => {
        const range = document.createRange();
        range.selectNodeContents(b);
        // Lines by overlap, not equal tops: an icon and its label share a line at different tops.
        const rects = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top);
        let lines = rects.length ? 1 : 0;
        let bottom = rects[0]?.bottom ?? 0;
        for (const r of rects) {
          if (r.top >= bottom - 1) lines++;
          bottom = r.top >= bottom - 1 ? r.bottom : Math.max(bottom, r.bottom);
        }
        const box = b.getBoundingClientRect();
        // A table that scrolls in its panel may hold a button out of sight; a stacked one never scrolls.
        const frame = b.closest(".table.stacked")
          ? b.closest(".table-wrap")
          : b.closest(".table-wrap")
            ? null
            : b.closest(".panel");
        const within = frame?.getBoundingClientRect();
        return lines > 1 || (within && (box.right > within.right + 0.5 || box.left < within.left - 0.5));
      })
      .map((b) => (b.textContent ?? "").trim())
      .slice(0, 5),
  );
}

/** Loads a page and checks what every page must hold; the failures, for one expect per page. */
async function visit(spec: PageSpec, role: Role, size: (typeof WIDTHS)[number]): Promise<string[]> {
  const context = await h.browser.newContext({
    viewport: { width: size.width, height: size.height },
    storageState: role === "admin" ? h.admin : viewer,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(`uncaught: ${e.message}`));
  try {
    const res = await page.goto(`${h.base}${spec.path()}`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    // Data still loading would measure a skeleton, not the page.
    await page.waitForFunction(() => document.querySelectorAll(".skeleton").length === 0, undefined, {
      timeout: 15_000,
    });
    const problems: string[] = [];
    const forbidden = spec.adminOnly && role === "viewer";
    if (forbidden) {
      if (res?.status() !== 403) problems.push(`answered ${res?.status()}, not 403`);
      await page.getByTestId("admin-contacts").waitFor({ timeout: 10_000 });
    } else if ((res?.status() ?? 500) >= 400) {
      problems.push(`answered ${res?.status()}`);
    }
    if (await page.getByRole("heading", { name: "Not found" }).count()) problems.push('says "Not found"');
    if (await page.locator(".error-panel").count())
      problems.push(`shows an error: ${await page.locator(".error-panel").first().textContent()}`);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    if (scrollWidth > innerWidth)
      problems.push(`scrolls sideways (${scrollWidth} px in ${innerWidth}): ${(await overflowing(page)).join("; ")}`);
    const untitled = await sizesWithoutTitle(page);
    if (untitled.length) problems.push(`sizes without exact bytes on hover: ${untitled.slice(0, 5).join(", ")}`);
    const off = offTheirBytes(await sizesWithBytes(page));
    if (off.length) problems.push(`sizes that are not their exact bytes formatted: ${off.slice(0, 5).join(", ")}`);
    const broken = await brokenButtons(page);
    if (broken.length) problems.push(`buttons broken over lines or cut off: ${broken.join(", ")}`);
    const noCsv = await tablesWithoutCsv(page);
    if (noCsv.length) problems.push(`tables without a CSV: ${noCsv.join(", ")}`);
    const check = CHECKS[spec.name];
    if (check) problems.push(...(await check(page, role)));
    // The browser reports the 403 document itself as a failed resource; that is the answer asked for. On that page
    // a prefetch of an admin route the viewer cannot open may come back as not found: a resource, not a fault.
    const unexpected = errors.filter((e) => !(forbidden && /Failed to load resource: .*status of (403|404)/.test(e)));
    if (unexpected.length) problems.push(`console errors: ${unexpected.join(" | ")}`);
    if (spec.shot && role === "admin")
      await page.screenshot({ path: path.join(SHOTS, `${spec.shot}-${size.width}.png`), fullPage: true });
    return problems;
  } finally {
    await context.close();
  }
}

const CASES = WIDTHS.flatMap((size) =>
  (["admin", "viewer"] as const).flatMap((role) => PAGES.map((spec) => ({ size, role, spec }))),
);

// Concurrent (the browser project's maxConcurrency at a time): each visit mostly waits, for the network to go idle
// and the page to hydrate, so three contexts at once share the two cores rather than queue.
describe.concurrent("every page, at 1440 and 390 px, as admin and as viewer", () => {
  it.each(CASES)("$spec.name at $size.width px as $role", async ({ size, role, spec }) => {
    expect(await visit(spec, role, size), `${spec.path()} as ${role} at ${size.width} px`).toEqual([]);
  });
});

describe("the navigation on a phone", () => {
  it("opens behind the Menu button, with every link and Sign out inside the window, and closes on a navigation", async () => {
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: h.admin });
    const page = await context.newPage();
    await page.goto(`${h.base}/`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    expect(await nav.isVisible()).toBe(true);
    for (const target of [
      nav.getByRole("link", { name: "Audit" }),
      page.getByRole("button", { name: "Sign out" }),
      page.getByRole("button", { name: /theme/ }),
    ]) {
      const box = await target.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await nav.getByRole("link", { name: "Findings" }).click();
    await page.waitForURL((u) => u.pathname === "/findings");
    await expect.poll(() => nav.isVisible()).toBe(false);
    await context.close();
  });
});

describe("one quantity, one figure", () => {
  /** The value and sub-line of each stat card of `testId`, by label, as shown. */
  const stats = (page: Page, testId: string) =>
    page.getByTestId(testId).evaluate((grid) =>
      Object.fromEntries(
        [...grid.querySelectorAll(".stat")].map((s) => [
          s.querySelector(".stat-label")?.textContent ?? "",
          {
            value: s.querySelector(".stat-value")?.textContent ?? "",
            title: s.querySelector(".stat-value [title]")?.getAttribute("title") ?? "",
            sub: s.querySelector(".stat-sub")?.textContent ?? "",
          },
        ]),
      ),
    );
  const api = async <T>(context: import("playwright-core").BrowserContext, route: string) =>
    (await (await context.request.get(`${h.base}${route}`)).json()) as T;

  it("shows the API's exact bytes through the one formatter on the overview, a workspace and an agent page", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    const page = await context.newPage();

    type Overview = {
      total: { bytes: number };
      growth: Record<"d1" | "d7" | "d30", { bytes: number }>;
      topAgents: { agent: string }[];
      series: { keys: string[]; points: { total: number }[] };
    };
    const o = await api<Overview>(context, "/api/v1/fleet/overview");
    await page.goto(`${h.base}/`, { waitUntil: "networkidle" });
    const fleet = await stats(page, "fleet-stats");
    expect(fleet["Total storage"]).toMatchObject({
      value: formatBytes(o.total.bytes),
      title: exactBytes(o.total.bytes),
    });
    expect(fleet["Growth 7 d"].value).toBe(formatBytesDelta(o.growth.d7.bytes));
    // The range's change is the chart's last point less its first (the default range, 30 days).
    const points = o.series.points;
    expect(fleet["Change over 30 days"].value).toBe(formatBytesDelta(points.at(-1)!.total - points[0].total));
    // One name per series: Top agents says what the chart's legend says. The chart is its own chunk, loaded
    // after hydration, so its legend is awaited rather than read the moment the network is quiet.
    const legendItems = page.locator(".chart-legend .legend-item");
    await legendItems.first().waitFor();
    const legend = await legendItems.allTextContents();
    const top = await page
      .locator("section", { has: page.getByRole("heading", { name: "Top agents" }) })
      .locator("li .grow")
      .allTextContents();
    expect(top.length).toBeGreaterThan(0);
    for (const name of top) expect(legend.map((l) => l.trim())).toContain(name.trim());

    type Detail = { workspace: { totalBytes: number; change7dBytes: number | null; growthBytesPerDay: number | null } };
    const ws = await api<Detail>(context, `/api/v1/workspaces/${pageObjects.workspace.split("/").pop()}`);
    await page.goto(`${h.base}${pageObjects.workspace}`, { waitUntil: "networkidle" });
    const card = await stats(page, "workspace-stats");
    expect(card["Total storage"].value).toBe(formatBytes(ws.workspace.totalBytes));
    expect(card["Change 7 d"].value).toBe(formatBytesDelta(ws.workspace.change7dBytes));
    // The rate under the 7-day change is that change a day at a time.
    if (ws.workspace.change7dBytes !== null)
      expect(card["Change 7 d"].sub).toBe(`${formatRate(ws.workspace.change7dBytes / 7)} on average`);

    type Agent = { total: { bytes: number }; oldData: { bytes: number; agedBytes: number } };
    const agent = await api<Agent>(context, "/api/v1/agents/codex");
    await page.goto(`${h.base}/agents/codex`, { waitUntil: "networkidle" });
    const a = await stats(page, "agent-stats");
    expect(a["Codex storage"].value).toBe(formatBytes(agent.total.bytes));
    const older = a["Older than 30 days"].sub;
    expect(older).toContain(
      `${formatBytes(agent.oldData.bytes)} of the ${formatBytes(agent.oldData.agedBytes)} in files`,
    );
    // Where the files' bytes are not the headline's, the card says what the rest is.
    if (agent.oldData.agedBytes < agent.total.bytes)
      expect(older).toContain(
        `the other ${formatBytes(agent.total.bytes - agent.oldData.agedBytes)} of the total is folders, which have no age`,
      );
    await context.close();
  });
});

describe("the findings page", () => {
  it("groups a workspace's identical findings, pages by key, filters through the URL and counts as the overview does", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    const page = await context.newPage();
    const overview = (await (await context.request.get(`${h.base}/api/v1/fleet/overview`)).json()) as {
      findings: { total: number; bySeverity: Record<string, number> };
    };
    await page.goto(`${h.base}/findings`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const tabs = page.getByTestId("severity-counts");
    await expect(tabs.getByRole("button").first().textContent()).resolves.toBe(
      `All ${overview.findings.total.toLocaleString("en-US")}`,
    );
    for (const s of ["critical", "warning", "info"])
      await expect(tabs.locator(`[data-severity=${s}]`).textContent()).resolves.toBe(
        `${s} ${overview.findings.bySeverity[s].toLocaleString("en-US")}`,
      );
    const rows = page.getByTestId("finding");
    expect(await rows.count()).toBe(50);
    await page.getByRole("button", { name: "Show the next 50 rows" }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);

    // Filters live in the URL: a reload shows the same rows.
    await page.getByRole("button", { name: /^info / }).click();
    await page.getByLabel("Filter by rule").selectOption("orphaned-script-data");
    await page.waitForURL((u) => u.searchParams.get("rule") === "orphaned-script-data");
    expect(new URL(page.url()).searchParams.get("severity")).toBe("info");
    const grouped = page.locator('[data-testid=finding]:not([data-count="1"])').first();
    await expect(grouped.textContent()).resolves.toMatch(/\d+ orphaned script-data folders, [\d.]+ [KMG]?i?B in all\./);
    const count = Number(await grouped.getAttribute("data-count"));
    await grouped.getByText(`Show all ${count}`).click();
    expect(await grouped.locator("details li").count()).toBe(Math.min(count, 20));
    await page.reload({ waitUntil: "networkidle" });
    await expect(page.getByLabel("Filter by rule").inputValue()).resolves.toBe("orphaned-script-data");
    const owner = (await rows.first().locator("a.cell-main").textContent())!.split("/")[0];
    await page.getByLabel("Filter by owner").fill(owner);
    await page.waitForURL((u) => u.searchParams.get("owner") === owner);
    await expect
      .poll(async () => new Set((await rows.locator("a.cell-main").allTextContents()).map((t) => t.split("/")[0])))
      .toEqual(new Set([owner]));
    await context.close();
  });

  it("keeps the thresholds on a page of their own, in words and units", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    const page = await context.newPage();
    await page.goto(`${h.base}/findings/rules`, { waitUntil: "networkidle" });
    const editor = page.getByTestId("rules-editor");
    for (const label of ["Use% (df) at or above", "Used space growing faster than", "Folders of at least"])
      await editor.getByLabel(label).waitFor();
    expect(await editor.textContent()).not.toMatch(/defaultBytes|bytesPerDay|usedPercent|minBytes/);
    await context.close();
  });
});

describe("the audit log", () => {
  type Entries = { entries: { id: number; action: string }[] };
  const newest = async (context: import("playwright-core").BrowserContext) =>
    ((await (await context.request.get(`${h.base}/api/v1/audit?limit=5`)).json()) as Entries).entries;

  it("records nothing when the new-run and new-policy forms open and preview", async () => {
    const context = await h.browser.newContext({ storageState: h.admin });
    const before = (await newest(context))[0]?.id ?? 0;
    const page = await context.newPage();
    for (const form of ["/cleanup/new?recipe=orphaned-script-data", "/cleanup/policies/new?recipe=codex-rollouts"]) {
      await page.goto(`${h.base}${form}`, { waitUntil: "networkidle" });
      await page.getByTestId("preview-total").waitFor();
    }
    expect((await newest(context)).filter((e) => e.id > before)).toEqual([]);
    await context.close();
  });

  it("names targets, reads details as text, offers the CSV and keeps 'From' in the window at 1440 px", async () => {
    const context = await h.browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: h.admin });
    const page = await context.newPage();
    await page.goto(`${h.base}/audit`, { waitUntil: "networkidle" });
    const table = page.getByTestId("audit-table");
    await table.locator("tbody tr").first().waitFor();
    // The run made in beforeAll is named by its recipe and linked, not shown as its UUID.
    const run = table.locator("tbody tr", { hasText: "cleanup.run_created" }).first();
    await expect(run.getByRole("link", { name: /^run: Claude Code debug logs, / }).getAttribute("href")).resolves.toBe(
      `/cleanup/runs/${pageObjects.run}`,
    );
    expect(await table.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[{}"]/);
    const csv = page.getByTestId("export-link");
    expect(await csv.getAttribute("href")).toBe("/api/v1/export/audit.csv");
    const from = await table.locator("thead th", { hasText: "From" }).boundingBox();
    const panel = await table.locator("xpath=ancestor::*[contains(@class, 'panel')][1]").boundingBox();
    expect(from!.x + from!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
    await context.close();
  });
});

describe("retention on the settings page", () => {
  it("is edited by an admin, checked as the API checks it, with its effect said before it is saved", async () => {
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: h.admin });
    const page = await context.newPage();
    await page.goto(`${h.base}/settings`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const raw = page.getByLabel(/^Raw reports.*days kept$/);
    const save = page.getByRole("button", { name: "Save retention" });
    expect(await save.isDisabled()).toBe(true);
    await raw.fill("0");
    await page.getByText("A whole number of days from 1 to 3650").waitFor();
    expect(await save.isDisabled()).toBe(true);
    await raw.fill("500");
    await page.getByText(/must be kept longer than raw reports/).waitFor();
    expect(await save.isDisabled()).toBe(true);
    await raw.fill("7");
    await expect(page.getByTestId("retention-effect").textContent()).resolves.toContain(
      "raw reports (every report and root): what is older than 7 days is dropped at the next maintenance run, within the hour.",
    );
    await save.click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.reload({ waitUntil: "networkidle" });
    await expect(page.getByLabel(/^Raw reports.*days kept$/).inputValue()).resolves.toBe("7");
    await context.close();
    // A viewer reads the values and is told who changes them.
    const asViewer = await h.browser.newContext({ storageState: viewer });
    const viewerPage = await asViewer.newPage();
    await viewerPage.goto(`${h.base}/settings`, { waitUntil: "networkidle" });
    expect(await viewerPage.getByLabel(/days kept$/).count()).toBe(0);
    await viewerPage.getByText("admins change it here").waitFor();
    await asViewer.close();
  });
});

describe("the server log", () => {
  // Better Auth warned of its base URL on every new instance, and logged a refused token as an error with a dump.
  it("says once at start that BETTER_AUTH_URL is unset, and logs a refused token as one info line", async () => {
    const res = await fetch(`${h.base}/api/v1/me`, { headers: { authorization: "Bearer sdt_not-a-real-token" } });
    expect(res.status).toBe(401);
    await expect.poll(() => h.serverLog()).toContain("[auth] API token refused");
    const log = h.serverLog();
    expect(log).not.toContain("Base URL is not set");
    expect(log.split("BETTER_AUTH_URL is not set").length - 1).toBe(1);
    expect(log).not.toMatch(/ERROR.*validate API key/);
  });
});
