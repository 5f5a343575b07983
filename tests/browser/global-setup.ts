// One seeded dashboard for the browser test files: seeding the demo fleet and starting `next start` took a good
// part of each file's time when each file did it. Files run one after another (fileParallelism: false), each
// against what the files before it left; a file that needs a dashboard of its own (its environment, sign-in
// limits it trips, a state nobody else touches) asks startHarness({ own: true }), which starts from a copy of the
// same seeded database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchChromium } from "./chromium";
import { ADMIN, signInAs, type StorageState } from "./harness";
import { SEEDED_FLEET_ENV, seedDemo, startDashboard } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared dashboard's URL, or "" when DASHBOARD_URL names one. */
    dashboardUrl: string;
    /** The file its server writes its log to. */
    dashboardLog: string;
    /** The demo admin's session on the shared dashboard, signed in once for all the files. */
    dashboardAdmin: StorageState | null;
    /** The demo fleet's database as seeded (60 workspaces, 30 days), for the files' own dashboards to copy. */
    seededFleet: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DASHBOARD_URL) {
    project.provide("dashboardUrl", "");
    project.provide("dashboardLog", "");
    project.provide("dashboardAdmin", null);
    project.provide("seededFleet", "");
    return;
  }
  // npm test seeds the fleet beside the unit files (SEEDED_FLEET_ENV); a browser project run alone seeds its own.
  const given = process.env[SEEDED_FLEET_ENV];
  const seeds = given ? null : fs.mkdtempSync(path.join(os.tmpdir(), "storage-browser-seed-"));
  const seeded = given || path.join(seeds!, "pglite");
  if (seeds) await seedDemo(seeded, 60, 30);
  project.provide("seededFleet", seeded);
  const logName = `${project.name}-shared-next.log`;
  const dashboard = await startDashboard({ seeded, logName }).catch((err) => {
    if (seeds) fs.rmSync(seeds, { recursive: true, force: true });
    throw err;
  });
  // One sign-in for all the files: the server allows an address ten a minute, and the files that run in a
  // quick minute would use them up.
  const browser = await launchChromium();
  try {
    project.provide("dashboardAdmin", await signInAs(browser, dashboard.url, ADMIN));
  } catch (err) {
    await dashboard.stop();
    if (seeds) fs.rmSync(seeds, { recursive: true, force: true });
    throw err;
  } finally {
    await browser.close();
  }
  project.provide("dashboardUrl", dashboard.url);
  project.provide("dashboardLog", path.resolve(".test-data", logName));
  return async () => {
    await dashboard.stop();
    if (seeds) fs.rmSync(seeds, { recursive: true, force: true });
  };
}
