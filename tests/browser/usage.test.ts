// The usage by team in Chromium, as an admin preparing last month's showback and as a team's lead: the teams come
// from Coder (the stand-in: two organizations, three groups, a lead in two of them), the demo fleet spans last
// month whole. The admin picks last month and "group" and reads each team's average, peak and byte-days, which
// add up from its members' own rows, with a total equal to the fleet chart's; the CSV the page's link downloads
// is the same table. The lead, a member signed in with Coder, sees their own workspaces' figures only: each of
// their groups' rows and the total are exactly their own row in the admin's view by owner. Screenshots at 1440
// and 390 px go to screenshots/usage-*.png.
import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CoderOAuth2 } from "../support/coder-standin/oauth2";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { coderTeams } from "../support/coder-standin/teams";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "../support/coder-standin/workspaces";
import { launchChromium } from "./chromium";
import { coderApp, coderMember, signInWithCoder } from "./coder-app";
import { ADMIN, signInAs } from "./harness";
import { startDashboard, type Dashboard } from "./server";

const TOKEN = "coder-usage-token";
const SHOTS = "screenshots";
const ENG = "0e000000-0000-4000-8000-00000000000e";
const RES = "0f000000-0000-4000-8000-00000000000f";
const GROUPS = [
  {
    id: "9a000000-0000-4000-8000-000000000001",
    name: "platform",
    org: ENG,
    members: ["alice", "bob", "carol", "dave"],
  },
  { id: "9a000000-0000-4000-8000-000000000002", name: "web", org: ENG, members: ["carol", "erin", "frank", "grace"] },
  { id: "9a000000-0000-4000-8000-000000000003", name: "ml", org: RES, members: ["olivia", "peggy", "rupert"] },
];
/** The platform team's lead, in the web team too: a member of the dashboard, signed in with Coder. */
const LEAD = "carol";
const organizationOf = (owner: string) => (["olivia", "peggy", "rupert", "sybil", "trent"].includes(owner) ? RES : ENG);

type Figures = { key: string; label: string; avgBytes: number; peakBytes: number; byteDays: number };
type Report = { from: string; to: string; days: number; rows: Figures[]; total: Figures };
/** What a row of the page's table shows: its name and the exact bytes its sizes carry on hover. */
type ShownRow = { name: string; avg: number; peak: number; byteDays: number; workspaces: number };

let browser: Browser;
let app: Dashboard;
let coder: CoderStandIn;
let api: CoderWorkspaces;
let oauth: CoderOAuth2;
let admin: BrowserContext;
/** Last month, as the month picker writes it. */
let month = "";

const bytesOf = (title: string | null) => Number((title ?? "").replace(/[^\d]/g, ""));
const near = (a: number, b: number) => Math.abs(a - b) <= 1;

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing wider than the screen: the table stacks its figures under each name on a phone.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${width} px`,
    ).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(SHOTS, `usage-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function report(context: BrowserContext, dimension: string): Promise<Report> {
  const res = await context.request.get(`${app.url}/api/v1/usage?dimension=${dimension}&month=${month}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Report;
}

/** The table as shown at 1440 px, the total last. */
async function shownRows(page: Page): Promise<ShownRow[]> {
  const rows = page.locator('[data-testid="usage-table"] tbody tr');
  const out: ShownRow[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const cells = rows.nth(i).locator("td");
    const exact = async (n: number) => bytesOf(await cells.nth(n).locator("span[title]").first().getAttribute("title"));
    out.push({
      name: (await cells.nth(0).innerText()).trim(),
      avg: await exact(1),
      peak: await exact(2),
      byteDays: await exact(3),
      workspaces: Number((await cells.nth(5).innerText()).replace(/[^\d]/g, "")),
    });
  }
  return out;
}

/**
 * Follows a team's row to the workspaces list: filtered to the team (named, removable), every workspace its members',
 * as many as the row counts.
 */
async function followToWorkspaces(page: Page, label: string, members: string[], workspaces: number, name: string) {
  await page.locator('[data-testid="usage-table"]').getByRole("link", { name: label, exact: true }).click();
  await page.waitForURL((u) => u.pathname === "/workspaces" && !!u.searchParams.get("group"));
  await expect.poll(() => page.getByTestId("team-filter-group").innerText()).toContain(`Group: ${label}`);
  const owners = page.locator('[data-testid="workspaces-table"] tbody tr td:nth-child(2)');
  await expect.poll(() => owners.count()).toBe(workspaces);
  for (const owner of await owners.allInnerTexts()) expect(members).toContain(owner.trim());
  await shot(page, name);
  await page.goBack({ waitUntil: "networkidle" });
}

/** Picks "Group" and last month on the page, as a person does. */
async function pickLastMonthByGroup(page: Page) {
  await page.getByRole("combobox", { name: /^By/ }).selectOption("group");
  await page.waitForURL((u) => u.searchParams.get("dimension") === "group");
  await page.getByLabel(/^Month/).fill(month);
  await page.waitForURL((u) => u.searchParams.get("month") === month);
  await page.getByText(new RegExp(`^The month ${month}:`)).waitFor();
  await page.waitForSelector('[data-testid="usage-table"] tbody tr[data-total="true"]');
}

/** Downloads the table's CSV through the page's link (the panel's, not the raw usage's) and reads it. */
async function downloadTable(page: Page): Promise<{ header: string[]; rows: string[][] }> {
  const link = page.getByRole("region", { name: "By group" }).getByTestId("export-link");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^usage-by-group-${month}-01-${month}-\\d{2}\\.csv$`));
  const text = fs.readFileSync((await download.path())!, "utf8");
  const [header, ...rows] = parse(text) as string[][];
  return { header, rows };
}

/** The CSV holds exactly the table: one row per team and the total, the same names and exact figures. */
function expectSameTable(csv: { header: string[]; rows: string[][] }, shown: ShownRow[], r: Report) {
  const col = (prefix: string) => csv.header.findIndex((h) => h.startsWith(prefix));
  expect(csv.header[col("byte_days")]).toBe(`byte_days (byte-days, ${r.from} to ${r.to})`);
  expect(csv.rows.length).toBe(shown.length);
  const byName = new Map(shown.map((s) => [s.name, s]));
  for (const row of csv.rows) {
    const name = row[col("name")] === "Total (each workspace once)" ? "Total" : row[col("name")];
    const s = byName.get(name);
    expect(s, `${name} is on the page`).toBeDefined();
    expect(near(Number(row[col("average")]), s!.avg), `${name}'s average`).toBe(true);
    expect(Number(row[col("peak")]), `${name}'s peak`).toBe(s!.peak);
    expect(Number(row[col("byte_days")]), `${name}'s byte-days`).toBe(s!.byteDays);
    expect(Number(row[col("workspaces")]), `${name}'s workspaces`).toBe(s!.workspaces);
  }
}

beforeAll(async () => {
  browser = await launchChromium();
  const now = new Date();
  month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const site = await coderApp("5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f", [
    coderMember("00000000-0000-0000-0000-00000000ca01", LEAD),
  ]);
  oauth = site.oauth;
  // The demo fleet's workspace ids are known once it is seeded: the start's sync meets Coder down, the test's reads it.
  api = coderWorkspaces({ tokens: [TOKEN] });
  api.failNext(503, 1000);
  const teams = coderTeams({
    tokens: [TOKEN],
    organizations: [
      { id: ENG, name: "engineering", display_name: "Engineering", is_default: true },
      { id: RES, name: "research", display_name: "Research" },
    ],
    groups: GROUPS.map((g) => ({
      id: g.id,
      name: g.name,
      display_name: g.name[0].toUpperCase() + g.name.slice(1),
      organization_id: g.org,
      members: g.members,
    })),
  });
  coder = await startCoderStandIn([api.handler, teams.handler, oauth.handler]);
  // Days enough that last month is whole, whatever today is.
  app = await startDashboard({
    workspaces: 24,
    days: 63,
    logName: "browser-usage-next.log",
    port: site.port,
    env: { ...site.env(coder.url), CODER_SESSION_TOKEN: TOKEN, CODER_SYNC_INTERVAL: "3600" },
  });
  admin = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState: await signInAs(browser, app.url, ADMIN),
  });
  const listed = await admin.request.get(`${app.url}/api/v1/workspaces?pageSize=200`);
  const fleet = ((await listed.json()) as { rows: { id: string; name: string; owner: string; template: string }[] })
    .rows;
  expect(fleet.length).toBe(24);
  for (const w of fleet) {
    api.workspaces.set(
      w.id,
      coderWorkspace({
        id: w.id,
        name: w.name,
        owner_name: w.owner,
        template_name: w.template,
        organization_id: organizationOf(w.owner),
        organization_name: organizationOf(w.owner) === ENG ? "engineering" : "research",
      }),
    );
  }
  api.failNext(503, 0);
  const synced = await admin.request.post(`${app.url}/api/v1/coder/sync`);
  expect(synced.status(), await synced.text()).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await coder?.close();
});

describe("usage by team", () => {
  it("gives an admin last month's figures per group, adding up to the fleet's, and the same table as CSV", async () => {
    const page = await admin.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${app.url}/usage`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await pickLastMonthByGroup(page);
    const shown = await shownRows(page);
    const byGroup = await report(admin, "group");
    const byOwner = await report(admin, "owner");
    const ownerRow = new Map(byOwner.rows.map((r) => [r.key, r]));

    // Each team's figures, from its members' own: byte-days and averages add up (a workspace counts in each group
    // of its owner), a team's peak is at least its largest member's and at most their peaks summed.
    const names = shown.map((s) => s.name);
    expect(names.at(-1)).toBe("Total");
    for (const g of GROUPS) {
      const label = `${g.org === ENG ? "Engineering" : "Research"} / ${g.name[0].toUpperCase()}${g.name.slice(1)}`;
      const row = shown.find((s) => s.name === label);
      expect(row, `${label} is a row`).toBeDefined();
      const members = g.members.map((m) => ownerRow.get(m)).filter((m) => m !== undefined);
      expect(members.length, `${label}'s members have usage`).toBeGreaterThan(0);
      const sum = (f: (m: Figures) => number) => members.reduce((a, m) => a + f(m), 0);
      expect(
        near(
          row!.byteDays,
          sum((m) => m.byteDays),
        ),
        `${label}'s byte-days`,
      ).toBe(true);
      expect(near(row!.avg, sum((m) => m.byteDays) / byGroup.days), `${label}'s average`).toBe(true);
      expect(row!.peak).toBeGreaterThanOrEqual(Math.max(...members.map((m) => Math.round(m.peakBytes))));
      expect(row!.peak).toBeLessThanOrEqual(sum((m) => m.peakBytes) + 1);
    }
    // Owners in no group are a row of their own.
    expect(names).toContain("(in no group)");

    // The total counts each workspace once and is the fleet's: the overview chart's days over the same range.
    const overview = await admin.request.get(
      `${app.url}/api/v1/fleet/overview?range=custom&from=${byGroup.from}&to=${byGroup.to}`,
    );
    expect(overview.status()).toBe(200);
    const days = ((await overview.json()) as { series: { points: { day: string; total: number }[] } }).series.points;
    expect(days.length).toBe(byGroup.days);
    expect(days[0].day).toBe(`${month}-01`);
    const total = shown.at(-1)!;
    const fleetByteDays = days.reduce((a, d) => a + d.total, 0);
    expect(near(total.byteDays, fleetByteDays), `total ${total.byteDays} vs the fleet's ${fleetByteDays}`).toBe(true);
    expect(near(total.peak, Math.max(...days.map((d) => d.total)))).toBe(true);
    expect(near(total.avg, fleetByteDays / days.length)).toBe(true);
    expect(total.workspaces).toBe(24);
    expect(near(total.byteDays, byOwner.total.byteDays)).toBe(true);

    expectSameTable(await downloadTable(page), shown, byGroup);
    await shot(page, "admin-group");
    const platform = shown.find((s) => s.name === "Engineering / Platform")!;
    await followToWorkspaces(page, platform.name, GROUPS[0].members, platform.workspaces, "admin-platform-workspaces");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a team's lead, a member, their own workspaces' figures only, as the admin sees them", async () => {
    oauth.signInAs(LEAD);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${app.url}/`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await signInWithCoder(page, app.url, coder.url);

    await page.getByRole("link", { name: "Usage", exact: true }).first().click();
    await page.waitForURL((u) => u.pathname === "/usage");
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    await pickLastMonthByGroup(page);
    const shown = await shownRows(page);
    const own = (await report(admin, "owner")).rows.find((r) => r.key === LEAD)!;
    expect(own).toBeDefined();
    // The lead's two groups and the total, each exactly their own row in the admin's view.
    expect(shown.map((s) => s.name).sort()).toEqual(["Engineering / Platform", "Engineering / Web", "Total"]);
    expect(shown.at(-1)!.name).toBe("Total");
    for (const s of shown) {
      expect(near(s.byteDays, own.byteDays), `${s.name}'s byte-days`).toBe(true);
      expect(near(s.peak, own.peakBytes), `${s.name}'s peak`).toBe(true);
      expect(near(s.avg, own.avgBytes), `${s.name}'s average`).toBe(true);
    }
    // The API answers the lead the same, and by owner names nobody else.
    const mine = await report(context, "owner");
    expect(mine.rows.map((r) => r.key)).toEqual([LEAD]);
    expectSameTable(await downloadTable(page), shown, await report(context, "group"));
    await shot(page, "lead-group");
    await followToWorkspaces(page, "Engineering / Web", [LEAD], shown[0].workspaces, "lead-web-workspaces");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lets an admin add teams from a CSV: unknown owners named, a malformed file refused and nothing changed", async () => {
    const page = await admin.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${app.url}/usage?dimension=group&month=${month}`, { waitUntil: "networkidle" });
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    const form = page.getByRole("form", { name: "Upload teams" });
    const upload = async (name: string, text: string) => {
      await form
        .getByLabel("Owner to team CSV")
        .setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
      await form.getByRole("button", { name: "Upload" }).click();
    };
    const before = (await report(admin, "group")).rows.map((r) => r.label).sort();

    // A file without the owner column: refused with the reason, and the groups are those of before.
    await upload("teams.csv", "name,team\nalice,Design\n");
    await expect.poll(() => form.getByRole("alert").innerText()).toContain("columns owner and team");
    expect((await report(admin, "group")).rows.map((r) => r.label).sort()).toEqual(before);

    // The design team: two owners with workspaces here and one without, who is named back.
    await upload("teams.csv", "owner,team\nalice,Design\nbob,Design\nnobody-here,Design\n");
    const outcome = form.getByTestId("team-upload-outcome");
    await expect.poll(() => outcome.innerText()).toContain("Stored 1 team with 3 owners");
    expect(await outcome.innerText()).toContain("nobody-here");
    // The table reads the new team at once, its figures its members' own summed.
    await page.locator('[data-testid="usage-table"]').getByRole("link", { name: "Design", exact: true }).waitFor();
    const byOwner = new Map((await report(admin, "owner")).rows.map((r) => [r.key, r]));
    const design = (await report(admin, "group")).rows.find((r) => r.label === "Design")!;
    expect(near(design.byteDays, byOwner.get("alice")!.byteDays + byOwner.get("bob")!.byteDays)).toBe(true);
    await shot(page, "admin-upload");
    expect(errors).toEqual([]);
    await page.close();
  });
});
