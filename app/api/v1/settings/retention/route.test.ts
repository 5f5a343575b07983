import { beforeAll, expect, it } from "vitest";
import { makePrincipals } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import type { StorageSettings } from "@/lib/db/queries/storage";
import { GET as storage } from "../storage/route";
import { PUT as putRetention } from "./route";

const ctx = { params: Promise.resolve({}) };
let admin: Record<string, string> = {};
const put = (body: unknown) =>
  putRetention(
    new Request("http://dashboard.test/api/v1/settings/retention", {
      method: "PUT",
      headers: { "content-type": "application/json", ...admin },
      body: JSON.stringify(body),
    }),
    ctx,
  );
const get = () => storage(new Request("http://dashboard.test/api/v1/settings/storage", { headers: admin }), ctx);

describeEachDatabase("settings: retention and storage", (t) => {
  beforeAll(async () => {
    serveRoutesFrom(t.current);
    admin = { authorization: `Bearer ${(await makePrincipals(t.current, "settings")).adminToken}` };
  });

  it("shows the retention in effect and the size of every table, partitions summed under their parent", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const body = (await res.json()) as StorageSettings;
    expect(body.retention.map((r) => [r.id, r.days])).toEqual([
      ["raw", 14],
      ["rollups", 400],
      ["audit", 365],
      ["cleanup", 90],
      ["notifications", 90],
    ]);
    const reports = body.tables.find((x) => x.table === "reports")!;
    expect(reports.partitions).toBeGreaterThanOrEqual(9);
    expect(reports.bytes).toBeGreaterThan(0);
    expect(body.tables.some((x) => x.table.startsWith("reports_"))).toBe(false);
    expect(body.totalBytes).toBe(body.tables.reduce((s, x) => s + x.bytes, 0));
  });

  it("changes retention days within bounds, keeping roll-ups longer than raw history", async () => {
    expect((await put({ raw: 0 })).status).toBe(422);
    expect((await put({ rollups: 7 })).status).toBe(422);
    expect((await put({ unknown: 3 })).status).toBe(422);
    const inconsistent = await put({ raw: 500 });
    expect(inconsistent.status).toBe(422);
    expect(JSON.stringify(await inconsistent.json())).toMatch(/longer than raw/);
    const ok = await put({ raw: 30, audit: 180 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      retention: { raw: 30, rollups: 400, audit: 180, cleanup: 90, notifications: 90 },
    });
    const after = (await (await get()).json()) as StorageSettings;
    expect(after.retention.find((r) => r.id === "raw")!.days).toBe(30);
  });
});
