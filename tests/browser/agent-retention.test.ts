// The agents' own retention in the browser, on the demo fleet: a workspace whose Codex keeps old rollouts (Codex
// has no retention) shows it beside the data's age, its finding says so and opens the new-policy form with the
// Codex rollouts recipe chosen, and the agent page shows the fleet's settings with the durable fix. Screenshots
// go to screenshots/agent-retention-*.png.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { formatBytes } from "@/lib/format/bytes";
import { openPage, startHarness, type Harness } from "./harness";

const SHOTS = "screenshots";
let h: Harness;

type Finding = { workspace: { id: string }; agent: string; value: number; message: string; action: string };

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

it("shows Codex's missing retention beside its old data, and links its finding to a policy with the right recipe", async () => {
  const api = await h.browser.newContext({ storageState: h.admin });
  const res = await api.request.get(`${h.base}/api/v1/findings?rule=agent-retention&agent=codex`);
  expect(res.status()).toBe(200);
  const { findings } = (await res.json()) as { findings: Finding[] };
  await api.close();
  // The demo fleet's Codex rollouts pile up: Codex cannot limit them itself.
  expect(findings.length).toBeGreaterThan(0);
  const f = findings[0];
  expect(f.message).toMatch(/^Codex keeps session rollouts with no age limit here \(no retention: .*\) and holds /);
  expect(f.message).toContain(`holds ${formatBytes(f.value)} older than 30 days.`);

  const { page, context, errors } = await openPage(h, `/workspaces/${encodeURIComponent(f.workspace.id)}`);
  const row = page.getByTestId("agent-retention").locator("tbody tr").filter({ hasText: "Codex" });
  await expect(row.locator("td").nth(1).textContent()).resolves.toMatch(/^no retention \(/);
  await expect(row.locator("td").nth(2).textContent()).resolves.toBe(formatBytes(f.value));
  const finding = page.getByTestId("finding").filter({ hasText: f.message });
  await finding.waitFor();
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.getByTestId("agent-retention").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "agent-retention-workspace.png"), fullPage: true });

  await finding.getByTestId("policy-link").click();
  await page.waitForURL(
    (u) => u.pathname === "/cleanup/policies/new" && u.searchParams.get("recipe") === "codex-rollouts",
  );
  await expect(page.getByLabel("Recipe").inputValue()).resolves.toBe("codex-rollouts");
  expect(errors).toEqual([]);
  await context.close();
});

it("shows the agent's settings across the fleet and the durable fix on the agent page", async () => {
  const { page, context, errors } = await openPage(h, "/agents/claude-code");
  const list = page.getByTestId("agent-retention");
  await list.waitFor();
  const items = await list.locator("li").allTextContents();
  // The demo's kubernetes-agents template sets 14 days through managed settings; others keep the default or more.
  expect(items.some((t) => t.startsWith("keeps 14 days (cleanupPeriodDays 14, managed)"))).toBe(true);
  expect(items.some((t) => t.startsWith("keeps 30 days (cleanupPeriodDays not set: default 30)"))).toBe(true);
  const panel = page.locator(".panel", { has: list });
  await expect(panel.textContent()).resolves.toContain("managed_settings");
  await expect(panel.getByTestId("policy-link").getAttribute("href")).resolves.toBe(
    "/cleanup/policies/new?recipe=claude-code-sessions",
  );
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "agent-retention-agent.png"), fullPage: true });
  expect(errors).toEqual([]);
  await context.close();
});
