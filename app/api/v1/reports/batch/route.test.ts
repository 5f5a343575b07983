import { gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { rowsOf } from "@/lib/db/types";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { LIMITS } from "@/lib/report-format/constants";
import type { ReportBatchResponse } from "@/lib/report-format/schema";
import { makeReport, MiB } from "@/tests/support/reports";
import { POST as enroll } from "../../enroll/route";
import { POST as postBatch } from "./route";

const ctx = { params: Promise.resolve({}) };

function request(body: unknown, token: string | null, gzip = true): Request {
  const json = JSON.stringify(body);
  return new Request("http://dashboard.test/api/v1/reports/batch", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    },
    body: gzip ? new Uint8Array(gzipSync(json)) : json,
  });
}

describeEachDatabase("POST /api/v1/reports/batch", (t) => {
  const ws = { id: "ws-batch", name: "dev", owner: "erin" };
  const other = { id: "ws-batch-other", name: "other", owner: "frank" };
  let token = "";
  const report = (minutesAgo: number, w: { id: string; name: string; owner: string } = ws) =>
    makeReport(
      w,
      new Date(Date.now() - minutesAgo * 60_000).toISOString(),
      [{ key: "claude-code:data", agent: "claude-code", bytes: (10 + minutesAgo) * MiB, path: ".claude" }],
      { totalBytes: 1000 * MiB, freeBytes: 500 * MiB },
    );
  const stored = async () =>
    rowsOf<{ id: string; n: number }>(
      await t.current.db.execute(sql`select id::text, count(*)::int as n from reports group by id order by id`),
    );
  const fleetBytes = async () =>
    rowsOf<{ b: number }>(
      await t.current.db.execute(sql`select coalesce(sum(bytes), 0)::float8 as b from fleet_delta`),
    )[0].b;

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const { key } = await getEnrollmentKey(t.current.db);
    const res = await enroll(
      new Request("http://dashboard.test/api/v1/enroll", {
        method: "POST",
        headers: { "content-type": "application/json", "x-enrollment-key": key },
        body: JSON.stringify({ workspace: ws }),
      }),
      ctx,
    );
    token = ((await res.json()) as { token: string }).token;
  });

  it("stores each report once with its own result; a bad one fails alone; a resend is all duplicates", async () => {
    const [a, b, c] = [report(30), report(20), report(10)];
    const bad = { ...report(5), roots: [{ key: "x" }] };
    const foreign = report(4, other);
    const batch = [a, bad, b, foreign, c, a];
    const res = await postBatch(request({ reports: batch }, token), ctx);
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as ReportBatchResponse;
    expect(results.map((r) => [r.id, r.status])).toEqual([
      [a.id, expect.stringMatching(/^(stored|duplicate)$/)],
      [bad.id, "rejected"],
      [b.id, "stored"],
      [foreign.id, "rejected"],
      [c.id, "stored"],
      [a.id, expect.stringMatching(/^(stored|duplicate)$/)],
    ]);
    // the same id twice in one batch is stored once: one of the two is the duplicate
    expect(
      results
        .filter((r) => r.id === a.id)
        .map((r) => r.status)
        .sort(),
    ).toEqual(["duplicate", "stored"]);
    expect(results[1]).toMatchObject({ error: { code: "invalid", message: expect.stringContaining("roots.0") } });
    expect(results[3]).toMatchObject({ error: { code: "forbidden" } });
    const expected = [a.id, b.id, c.id].sort().map((id) => ({ id, n: 1 }));
    expect(await stored()).toEqual(expected);
    const bytes = await fleetBytes();

    const again = (await (
      await postBatch(request({ reports: [c, b, a] }, token, false), ctx)
    ).json()) as ReportBatchResponse;
    expect(again.results.map((r) => r.status)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(await stored()).toEqual(expected);
    expect(await fleetBytes()).toBe(bytes);
  });

  it("refuses a batch as a whole only when the request is wrong, storing nothing", async () => {
    const before = await stored();
    const tooMany = Array.from({ length: LIMITS.reportBatchSize + 1 }, (_, i) => report(60 + i));
    const cases: [Request, number, string][] = [
      [request({ reports: tooMany }, token), 422, "invalid"],
      [request({ reports: [] }, token), 422, "invalid"],
      [request([report(70)], token), 422, "invalid"],
      [request({ reports: [report(71)] }, null), 401, "unauthorized"],
      [request({ reports: [report(72)] }, "swt_wrong"), 401, "unauthorized"],
    ];
    for (const [req, status, code] of cases) {
      const res = await postBatch(req, ctx);
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    }
    expect(await stored()).toEqual(before);
  });
});
