// Every page of the dashboard, for the files that walk them all (pages.test.ts, security-headers.test.ts), and
// the objects the pages with an id need (a workspace, a cleanup run and a policy), made through the API.
import { expect } from "vitest";
import type { Harness } from "./harness";

/** A page to walk; `path` is read when its test runs (a workspace, run and policy are found or made first). */
export type PageSpec = { name: string; path: () => string; adminOnly?: boolean; shot?: string };

const RUN = { recipe: "claude-code-debug", params: { olderThanDays: 7 }, scope: { all: true } };
export const pageObjects = { workspace: "", run: "", policy: "" };

export const PAGES: PageSpec[] = [
  { name: "overview", path: () => "/", shot: "overview" },
  { name: "workspaces", path: () => "/workspaces" },
  { name: "a workspace", path: () => pageObjects.workspace, shot: "workspace" },
  { name: "volumes at risk", path: () => "/volumes", shot: "volumes" },
  { name: "agents", path: () => "/agents", shot: "agents" },
  { name: "Claude Code", path: () => "/agents/claude-code" },
  { name: "Codex", path: () => "/agents/codex" },
  { name: "findings", path: () => "/findings", shot: "findings" },
  { name: "findings' rules", path: () => "/findings/rules", shot: "rules" },
  { name: "lost at restart", path: () => "/restart" },
  { name: "cleanup", path: () => "/cleanup" },
  { name: "a run", path: () => `/cleanup/runs/${pageObjects.run}` },
  { name: "a policy", path: () => `/cleanup/policies/${pageObjects.policy}` },
  { name: "new run", path: () => "/cleanup/new", adminOnly: true },
  { name: "new policy", path: () => "/cleanup/policies/new", adminOnly: true },
  { name: "connect", path: () => "/connect" },
  { name: "settings", path: () => "/settings" },
  { name: "users", path: () => "/users", adminOnly: true },
  { name: "audit", path: () => "/audit", adminOnly: true },
  { name: "notifications", path: () => "/notifications", adminOnly: true },
];

/** POSTs as the admin and returns the JSON answer (409 accepted: the object exists from an earlier run against DASHBOARD_URL). */
export async function postAsAdmin<T>(h: Harness, route: string, data: unknown, accept409 = false): Promise<T | null> {
  const context = await h.browser.newContext({ storageState: h.admin });
  try {
    const res = await context.request.post(`${h.base}${route}`, { data });
    if (accept409 && res.status() === 409) return null;
    if (!res.ok()) throw new Error(`POST ${route} answered ${res.status()}: ${await res.text()}`);
    return (await res.json()) as T;
  } finally {
    await context.close();
  }
}

/** Finds a workspace and makes a cleanup run and a policy, so that the pages of PAGES with an id exist. */
export async function makePageObjects(h: Harness): Promise<void> {
  const context = await h.browser.newContext({ storageState: h.admin });
  const page = await context.newPage();
  await page.goto(`${h.base}/workspaces`, { waitUntil: "networkidle" });
  const workspace = await page.locator('[data-testid="workspaces-table"] tbody tr a').first().getAttribute("href");
  await context.close();
  expect(workspace).toMatch(/^\/workspaces\/.+/);
  const policy = await postAsAdmin<{ policy: { id: string } }>(h, "/api/v1/cleanup/policies", {
    ...RUN,
    name: `pages-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    schedule: "off",
  });
  const preview = await postAsAdmin<{ total: { bytes: number } }>(h, "/api/v1/cleanup/preview", RUN);
  const run = await postAsAdmin<{ id: string }>(h, "/api/v1/cleanup/runs", {
    ...RUN,
    confirmBytes: preview!.total.bytes,
  });
  Object.assign(pageObjects, { workspace: workspace!, run: run!.id, policy: policy!.policy.id });
}
