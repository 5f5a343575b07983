// One seeded dashboard for the browser test files: seeding the demo fleet and starting `next start` took a good
// part of each file's time when each file did it. Files run one after another (fileParallelism: false), each
// against what the files before it left; a file that needs a dashboard of its own (its environment, sign-in
// limits it trips, a state nobody else touches) asks startHarness({ own: true }).
import path from "node:path";
import type { TestProject } from "vitest/node";
import { launchChromium } from "./chromium";
import { ADMIN, signInAs, type StorageState } from "./harness";
import { startDashboard } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared dashboard's URL, or "" when DASHBOARD_URL names one. */
    dashboardUrl: string;
    /** The file its server writes its log to. */
    dashboardLog: string;
    /** The demo admin's session on the shared dashboard, signed in once for all the files. */
    dashboardAdmin: StorageState | null;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DASHBOARD_URL) {
    project.provide("dashboardUrl", "");
    project.provide("dashboardLog", "");
    project.provide("dashboardAdmin", null);
    return;
  }
  const logName = "browser-shared-next.log";
  const dashboard = await startDashboard({ workspaces: 60, days: 30, logName });
  // One sign-in for all the files: the server allows an address ten a minute, and the files that run in a
  // quick minute would use them up.
  const browser = await launchChromium();
  try {
    project.provide("dashboardAdmin", await signInAs(browser, dashboard.url, ADMIN));
  } catch (err) {
    await dashboard.stop();
    throw err;
  } finally {
    await browser.close();
  }
  project.provide("dashboardUrl", dashboard.url);
  project.provide("dashboardLog", path.resolve(".test-data", logName));
  return () => dashboard.stop();
}
