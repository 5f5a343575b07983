import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPage, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

describe("workspaces export", () => {
  it("carries the table's filters and sort, and downloads its rows", async () => {
    const { page, context, errors } = await openPage(h, "/workspaces");
    const rows = page.locator('[data-testid="workspaces-table"] tbody tr');
    const link = page.getByTestId("export-link");
    await page.getByRole("button", { name: /^Workspace/ }).click();
    await page.waitForURL((u) => u.searchParams.get("sort") === "name");
    await page.getByRole("button", { name: /^Workspace/ }).click();
    await page.waitForURL((u) => u.searchParams.get("dir") === "desc");
    const owner = (await rows.first().locator("td").nth(1).textContent())!.trim();
    const count = page.getByTestId("row-count");
    const before = await count.textContent();
    await page.getByLabel("Filter by owner").fill(owner);
    await page.waitForURL((u) => u.searchParams.get("owner") === owner);
    await page.waitForFunction((t) => document.querySelector('[data-testid="row-count"]')?.textContent !== t, before);
    await page.waitForFunction(() => document.querySelector(".table-wrap")?.getAttribute("aria-busy") === "false");

    const href = (await link.getAttribute("href"))!;
    const url = new URL(href, h.base);
    expect(url.pathname).toBe("/api/v1/export/workspaces.csv");
    expect(Object.fromEntries(url.searchParams)).toEqual({ owner, sort: "name", dir: "desc" });
    expect(await link.getAttribute("download")).not.toBeNull();

    const res = await page.request.get(url.toString());
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers()["content-disposition"]).toMatch(/^attachment; filename="workspaces-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).split("\r\n");
    expect(lines.at(-1)).toBe("");
    const data = lines.slice(1, -1).map((l) => l.split(","));
    const total = Number((await count.textContent())!.match(/of ([\d,]+)/)![1].replace(/,/g, ""));
    expect(data.length).toBe(total);
    expect(data.length).toBe(await rows.count());
    const header = lines[0].split(",");
    const first = rows.first().locator("td");
    expect(data[0][header.indexOf("name")]).toBe((await first.nth(0).textContent())!.trim());
    expect(data[0][header.indexOf("owner")]).toBe(owner);
    expect(errors).toEqual([]);
    await context.close();
  });
});
