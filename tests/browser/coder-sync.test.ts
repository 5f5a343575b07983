// The workspace sync through the built app against the Coder stand-in: the sync at start meets Coder down (the
// overview still answers and says so), an admin's POST /api/v1/coder/sync then reads Coder, and the pages show each
// workspace's status in Coder with a link to it, and the overview's coverage line with the workspace Coder would not
// show the sync's token (its template is not readable) and why.
import fs from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "../support/coder-standin/workspaces";
import { launchChromium } from "./chromium";
import { ADMIN, signInAs } from "./harness";
import { startDashboard, type Dashboard } from "./server";

const TOKEN = "coder-browser-token";
const SHOTS = "/work/briefs/shots";

let browser: Browser;
let app: Dashboard;
let coder: CoderStandIn;
let api: CoderWorkspaces;
let admin: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
  api = coderWorkspaces({ tokens: [TOKEN] });
  // Coder is down while the app starts: its first sync fails and is kept as the last sync's error.
  api.failNext(503, 1000);
  coder = await startCoderStandIn([api.handler]);
  app = await startDashboard({
    workspaces: 3,
    days: 2,
    logName: "browser-coder-sync-next.log",
    env: { CODER_URL: coder.url, CODER_SESSION_TOKEN: TOKEN, CODER_SYNC_INTERVAL: "3600" },
  });
  admin = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    storageState: await signInAs(browser, app.url, ADMIN),
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await coder?.close();
});

async function shot(page: import("playwright-core").Page, name: string) {
  if (fs.existsSync(SHOTS)) await page.screenshot({ path: `${SHOTS}/sync-${name}.png`, fullPage: true });
}

it("shows a Coder outage on the overview without failing it", async () => {
  const page = await admin.newPage();
  await expect.poll(() => api.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
  // The start's sync retries before it gives up; the page then shows its error.
  await expect
    .poll(
      async () => {
        await page.goto(`${app.url}/`, { waitUntil: "networkidle" });
        return (await page.locator("[data-testid=coder-sync]").count()) > 0;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect
    .poll(() => page.locator("[data-testid=coder-sync]").innerText())
    .toMatch(/The last sync from Coder failed/);
  await shot(page, "outage");
  await page.close();
});

it("syncs on an admin's request, then shows each workspace's Coder status and link, and the coverage", async () => {
  const listed = await admin.request.get(`${app.url}/api/v1/workspaces?pageSize=200&sort=name&dir=asc`);
  const rows = ((await listed.json()) as { rows: { id: string; name: string; owner: string }[] }).rows;
  expect(rows.length).toBe(3);
  const [first, second, third] = rows;
  api.workspaces.set(first.id, coderWorkspace({ id: first.id, name: first.name, owner_name: first.owner }));
  api.workspaces.set(
    second.id,
    coderWorkspace({
      id: second.id,
      name: second.name,
      owner_name: second.owner,
      latest_build: { status: "stopped", transition: "stop" },
      dormant_at: new Date(Date.now() - 5 * 86_400_000).toISOString(),
    }),
  );
  // On a template the sync's token cannot read: Coder leaves it out of the list and answers 403 for it.
  api.workspaces.set(
    third.id,
    coderWorkspace({ id: third.id, name: third.name, owner_name: third.owner, template_id: "tpl-secret" }),
  );
  api.unreadableTemplates.add("tpl-secret");
  for (const id of ["c-never-1", "c-never-2"])
    api.workspaces.set(id, coderWorkspace({ id, name: id, owner_name: "zoe" }));
  api.failNext(503, 0);

  const res = await admin.request.post(`${app.url}/api/v1/coder/sync`);
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ listed: 4, added: 2, deleted: 0, error: null });
  expect(body.unverified).toEqual([{ id: third.id, name: third.name, owner: third.owner, reason: "not_readable" }]);

  const page = await admin.newPage();
  await page.goto(`${app.url}/workspaces?sort=name&dir=asc`, { waitUntil: "networkidle" });
  const row = page.locator("tr", { has: page.getByRole("link", { name: first.name, exact: true }) });
  await expect.poll(() => row.getByTestId("coder-status").innerText()).toContain("running");
  const link = row.getByTestId("coder-link");
  expect(await link.getAttribute("href")).toBe(
    `${coder.url}/@${encodeURIComponent(first.owner)}/${encodeURIComponent(first.name)}`,
  );
  const dormant = page.locator("tr", { has: page.getByRole("link", { name: second.name, exact: true }) });
  expect(await dormant.getByTestId("coder-status").innerText()).toContain("dormant");
  await shot(page, "workspaces");

  await page.goto(`${app.url}/`, { waitUntil: "networkidle" });
  const coverage = page.getByTestId("coder-coverage");
  await expect.poll(() => coverage.innerText()).toContain("2 of 4 Coder workspaces report; 2 don't");
  expect(await coverage.innerText()).toMatch(/Synced from Coder/);
  const unverified = page.getByTestId("coder-unverified");
  expect(await unverified.innerText()).toContain("1 workspace could not be checked in Coder");
  await unverified.locator("summary").click();
  expect(await unverified.getByTestId("coder-unverified-reason").innerText()).toMatch(/^Coder answers 403/);
  await shot(page, "overview");
  // The missing ones, as a list and as the workspaces export under the same filter.
  await page.getByTestId("coverage-missing").click();
  await page.waitForURL((u) => u.pathname === "/workspaces" && u.searchParams.get("reporting") === "no");
  await expect.poll(() => page.getByRole("link", { name: "c-never-1", exact: true }).count()).toBe(1);
  const csv = await admin.request.get(`${app.url}/api/v1/export/workspaces.csv?reporting=no`);
  const text = await csv.text();
  expect(text.split("\r\n").filter(Boolean).length).toBe(3);
  expect(text).toContain("c-never-2");
  await page.close();
});
