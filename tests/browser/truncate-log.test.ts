// A growing log's finding offers Truncate to an admin: the button only opens a dialog that states the file (where
// it is in the home) and its size and that the trash cannot hold it; the request goes from the dialog's own button and its run opens.
// On a dashboard of its own: the growing-file rule's size is lowered to 1 MiB so that the demo fleet's logs
// show, which would change every other file's findings.
import fs from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { truncateRefusal } from "@/lib/catalog/truncatable";
import type { FindingGroup } from "@/lib/findings/finding";
import { formatBytes } from "@/lib/format/bytes";
import { ADMIN, signedInOnSite, startHarness, type Harness } from "./harness";

let h: Harness;
let admin: BrowserContext;

beforeAll(async () => {
  h = await startHarness({ own: true });
  admin = await signedInOnSite(h, ADMIN);
});

afterAll(async () => {
  await admin?.close();
  await h?.close();
});

async function open(page: Page, pathname: string) {
  await page.goto(`${h.site}${pathname}`, { waitUntil: "networkidle" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
}

describe("truncating a growing log", () => {
  it("states the file and its figure, and sends nothing before the dialog's own button", async () => {
    const page = await admin.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await open(page, "/findings/rules");
    const lowered = await page.evaluate(async () => {
      const r = await fetch("/api/v1/findings/rules", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rules: [{ id: "growing-file", params: { bytes: 1024 ** 2, bytesPerDay: 1024 ** 3 } }] }),
      });
      return r.status;
    });
    expect(lowered).toBe(200);

    await open(page, "/findings?rule=growing-file");
    // The first row's first log, from the list the page shows (one row: the finding; several: its members).
    const first = await page.evaluate(async () => {
      const r = await fetch("/api/v1/findings?rule=growing-file");
      return ((await r.json()) as { findings: FindingGroup[] }).findings[0];
    });
    const log = (first.count === 1 ? [first] : first.members).find((m) => m.path && !truncateRefusal(m.path))!;
    // The dialog names the file where it is in the home: its root's place in the workspace's latest report.
    const rootPath = await page.evaluate(
      async ([id, key]) => {
        const r = await fetch(`/api/v1/workspaces/${encodeURIComponent(id)}`);
        return ((await r.json()) as { roots: { key: string; path: string }[] }).roots.find((x) => x.key === key)!.path;
      },
      [first.workspace.id, log.rootKey!] as const,
    );
    expect(rootPath).toMatch(/^\.[a-z]/); // an agent's folder, .codex or .claude
    const file = `~/${rootPath}/${log.path}`;
    const figure = formatBytes(first.count === 1 ? first.value : log.value);
    const finding = page.getByTestId("finding").first();
    if (first.count > 1) await finding.getByTestId("finding-members").locator("summary").click();
    await expect(finding.textContent()).resolves.toContain(figure);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/cleanup/truncate") posts.push(r.url());
    });
    await finding.getByTestId("truncate-log").first().click();
    const dialog = page.getByTestId("confirm-dialog");
    await expect(dialog.getByRole("heading").textContent()).resolves.toBe(`Truncate ${file}, ${figure}?`);
    await expect(dialog.textContent()).resolves.toContain("This cannot be undone; the trash cannot hold it.");
    fs.mkdirSync("screenshots", { recursive: true });
    await page.screenshot({ path: "screenshots/truncate-dialog-1440.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "screenshots/truncate-dialog-390.png" });
    await page.setViewportSize({ width: 1440, height: 900 });
    const final = dialog.getByTestId("confirm-run-final");
    await expect(final.textContent()).resolves.toBe(`Truncate ${file}, ${figure}`);
    // going back sends nothing either
    await dialog.getByRole("button", { name: "Go back" }).click();
    await finding.getByTestId("truncate-log").first().click();
    expect(posts).toEqual([]);

    await final.click();
    await page.waitForURL((u) => /^\/cleanup\/runs\/[0-9a-f-]{36}$/.test(u.pathname));
    // the run is named by the target it stores (its root's key and the path in it)
    await page.getByRole("heading", { name: `Truncate: ${log.path} in ${log.rootKey}` }).waitFor();
    await page.locator('[data-testid="run-jobs"] tbody tr[data-state="queued"]').first().waitFor();
    expect(posts).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a viewer no Truncate button on the same findings", async () => {
    const viewer = { email: "tess@example.com", password: "tess-viewer-password" };
    const page = await admin.newPage();
    await open(page, "/users");
    const created = await page.evaluate(async (v) => {
      const r = await fetch("/api/v1/users", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...v, role: "viewer" }),
      });
      return r.status;
    }, viewer);
    expect(created).toBe(201);
    await page.close();
    const asViewer = await signedInOnSite(h, viewer);
    const seen = await asViewer.newPage();
    await open(seen, "/findings?rule=growing-file");
    await seen.getByTestId("finding").first().waitFor();
    await expect(seen.getByTestId("user-role").textContent()).resolves.toBe("viewer");
    await expect(seen.getByTestId("truncate-log").count()).resolves.toBe(0);
    await asViewer.close();
  });
});
