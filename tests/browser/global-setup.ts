// One seeded dashboard for every browser test file that needs no environment of its own: seeding the demo fleet
// and starting `next start` took a good part of each file's time when each file did it. Files run one after
// another (fileParallelism: false), each against what the files before it left; a file that needs a server
// of its own (its environment, or a state nobody else touches) starts one with startDashboard.
import type { TestProject } from "vitest/node";
import { startDashboard } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared dashboard's URL, or "" when DASHBOARD_URL names one. */
    dashboardUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.DASHBOARD_URL) {
    project.provide("dashboardUrl", "");
    return;
  }
  const dashboard = await startDashboard({ workspaces: 60, days: 30 });
  project.provide("dashboardUrl", dashboard.url);
  return () => dashboard.stop();
}
