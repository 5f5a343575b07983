// GET /metrics and the OpenAPI document in the built app, as Prometheus and a client generator call them.
import fs from "node:fs";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPage, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
});

const count = (text: string, name: string, labels: Record<string, string> = {}) =>
  parsePrometheusTextFormat(text)
    .find((f) => f.name === name)
    ?.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((s, m) => s + Number(m.value ?? m.count), 0) ?? NaN;

it("serves /metrics to a viewer API token, 401 to anyone else (no redirect to sign-in), counting across routes", async () => {
  // A viewer token, made as an admin makes one.
  const { page, context } = await openPage(h, "/");
  const created = await page.request.post(`${h.base}/api/v1/tokens`, {
    data: { name: `prometheus-${Date.now()}`, role: "viewer" },
  });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  await context.close();

  for (const headers of [{}, { authorization: "Bearer sdt_nope" }] as Record<string, string>[]) {
    const refused = await fetch(`${h.base}/metrics`, { headers, redirect: "manual" });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  }
  const scrape = async () => {
    const res = await fetch(`${h.base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const before = await scrape();
  expect(count(before, "coder_storage_workspaces")).toBeGreaterThan(0);
  expect(count(before, "coder_storage_fleet_bytes")).toBeGreaterThan(0);
  expect(
    parsePrometheusTextFormat(before).find((f) => f.name === "coder_storage_workspace_volume_used_bytes")!.metrics
      .length,
  ).toBeGreaterThan(0);
  // Refused by the ingest route, counted there and read by /metrics: one set of counters per process, whatever
  // Next.js's bundles.
  const report = await fetch(`${h.base}/api/v1/reports`, {
    method: "POST",
    headers: { authorization: "Bearer swt_nope", "content-type": "application/json" },
    body: "{}",
  });
  expect(report.status).toBe(401);
  const after = await scrape();
  const refusals = { outcome: "unauthorized" };
  expect(
    count(after, "coder_storage_ingest_reports_total", refusals) -
      (count(before, "coder_storage_ingest_reports_total", refusals) || 0),
  ).toBe(1);
});

it("shows the exposition to a signed-in viewer or admin in the browser (screenshots/metrics.png)", async () => {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: h.admin });
  const page = await context.newPage();
  const res = await page.goto(`${h.base}/metrics`);
  expect(res!.status()).toBe(200);
  expect(await page.locator("body").textContent()).toContain("# TYPE coder_storage_workspace_volume_used_bytes gauge");
  fs.mkdirSync("screenshots", { recursive: true });
  await page.screenshot({ path: "screenshots/metrics.png" });
  await context.close();
});

it("serves the OpenAPI document to anyone", async () => {
  const res = await fetch(`${h.base}/api/v1/openapi.json`, { redirect: "manual" });
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/workspaces", "/metrics"]));
});
