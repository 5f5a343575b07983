import { gzipSync } from "node:zlib";
import { addDays } from "date-fns";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it, vi } from "vitest";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { makeReport, MiB } from "@/tests/support/reports";
import { LIMITS } from "@/lib/report-format/constants";
import { POST as enroll } from "../enroll/route";
import { POST as postReport } from "./route";
import { GET as health } from "../health/route";
import { rowsOf } from "@/lib/db/types";

const ctx = { params: Promise.resolve({}) };
const url = "http://dashboard.test/api/v1/reports";

function request(body: BodyInit | null, headers: Record<string, string> = {}, stream = false): Request {
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
  };
  if (stream && body !== null) {
    // A streamed body has no Content-Length: the limit must hold while reading.
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body as ArrayBuffer);
    init.body = new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.subarray(i, i + 65536));
        c.close();
      },
    });
    init.duplex = "half";
  } else {
    init.body = body;
  }
  return new Request(url, init);
}

describeEachDatabase("POST /api/v1/reports", (t) => {
  const ws = { id: "ws-http", name: "dev", owner: "erin", template: "ai-dev" };
  const other = { id: "ws-other", name: "other", owner: "frank" };
  let token = "";
  let otherToken = "";
  const counts = async () => {
    const r = await t.current.db.execute(sql`select (select count(*) from reports)::int as reports,
      (select count(*) from root_usage)::int as roots, (select count(*) from fleet_delta)::int as fleet`);
    return rowsOf(r)[0];
  };

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const { key } = await getEnrollmentKey(t.current.db);
    const enrollAs = async (w: typeof ws | typeof other) => {
      const res = await enroll(
        new Request("http://dashboard.test/api/v1/enroll", {
          method: "POST",
          headers: { "content-type": "application/json", "x-enrollment-key": key },
          body: JSON.stringify({ workspace: w }),
        }),
        ctx,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    token = await enrollAs(ws);
    otherToken = await enrollAs(other);
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  const good = () =>
    makeReport(
      ws,
      new Date(Date.now() - 60_000).toISOString(),
      [{ key: "claude-code:data", agent: "claude-code", bytes: 5 * MiB, path: ".claude" }],
      { totalBytes: 100 * MiB, freeBytes: 50 * MiB },
    );

  it("stores a gzip report once and answers a resend as a duplicate", async () => {
    const report = good();
    const body = gzipSync(JSON.stringify(report));
    const first = await postReport(request(body, { ...auth(), "content-encoding": "gzip" }), ctx);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ reportId: report.id, status: "stored" });
    const again = await postReport(request(JSON.stringify(report), auth()), ctx);
    expect(await again.json()).toMatchObject({ status: "duplicate" });
    expect(await counts()).toMatchObject({ reports: 1, roots: 1 });
  });

  it("accepts a report from a reporter before 0.2 (volume without Used or inodes, leftovers as roots)", async () => {
    const report = makeReport(
      ws,
      new Date(Date.now() - 30_000).toISOString(),
      [
        {
          key: "coder/claude-code",
          kind: "module",
          agent: "claude-code",
          bytes: 143_360,
          path: ".coder-modules/coder/claude-code",
        },
        {
          key: "leftover:coder/claude-code/agentapi.pid",
          kind: "leftover",
          agent: "claude-code",
          bytes: 4096,
          path: ".coder-modules/coder/claude-code/agentapi.pid",
        },
      ],
      { totalBytes: 100 * MiB, freeBytes: 40 * MiB },
      { reporter: { version: "0.1.0", scanMs: 5 } },
    );
    const res = await postReport(request(JSON.stringify(report), auth()), ctx);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ reportId: report.id, status: "stored" });
    const [w] = rowsOf<{ used: number; pct: number; inodes: number | null }>(
      await t.current.db
        .execute(sql`select volume_used_bytes::float8 as used, volume_used_pct as pct, volume_inodes_total as inodes
        from workspaces where id = ${ws.id}`),
    );
    expect(w).toEqual({ used: 60 * MiB, pct: 60, inodes: null });
  });

  type Case = { name: string; req: () => Request; status: number; code: string; detail?: RegExp };
  const withReport = (patch: (r: Record<string, unknown>) => void) => () => {
    const r = good() as unknown as Record<string, unknown>;
    patch(r);
    return request(JSON.stringify(r), auth());
  };
  const firstRoot = (r: Record<string, unknown>) => (r.roots as Record<string, unknown>[])[0];
  const cases: Case[] = [
    { name: "malformed JSON", req: () => request("{not json", auth()), status: 400, code: "malformed_json" },
    {
      name: "corrupt gzip",
      req: () => request("plain", { ...auth(), "content-encoding": "gzip" }),
      status: 400,
      code: "malformed_body",
    },
    { name: "no token", req: () => request(JSON.stringify(good())), status: 401, code: "unauthorized" },
    {
      name: "a wrong token",
      req: () => request(JSON.stringify(good()), { authorization: "Bearer swt_nope" }),
      status: 401,
      code: "unauthorized",
    },
    {
      name: "another workspace's id",
      req: () => request(JSON.stringify(good()), { authorization: `Bearer ${otherToken}` }),
      status: 403,
      code: "forbidden",
    },
    {
      name: "an unknown format version",
      req: withReport((r) => (r.version = 7)),
      status: 422,
      code: "unsupported_version",
      detail: /accepts 1/,
    },
    {
      name: "a missing field",
      req: withReport((r) => delete r.collectedAt),
      status: 422,
      code: "invalid",
      detail: /collectedAt/,
    },
    {
      name: "a negative size",
      req: withReport((r) => (firstRoot(r).bytes = -1)),
      status: 422,
      code: "invalid",
      detail: /roots\.0\.bytes/,
    },
    {
      name: "an absurd file count",
      req: withReport((r) => (firstRoot(r).files = 1e12)),
      status: 422,
      code: "invalid",
      detail: /roots\.0\.files/,
    },
    {
      name: "an absolute path",
      req: withReport((r) => (firstRoot(r).path = "/etc/passwd")),
      status: 422,
      code: "invalid",
      detail: /absolute/,
    },
    {
      name: "a path with ..",
      req: withReport((r) => (firstRoot(r).path = ".claude/../../etc")),
      status: 422,
      code: "invalid",
      detail: /\.\./,
    },
    {
      name: "a collected-at far in the future",
      req: withReport((r) => (r.collectedAt = addDays(new Date(), 1).toISOString())),
      status: 422,
      code: "invalid",
      detail: /future/,
    },
    {
      name: "a body over the limit, streamed without a length",
      req: () => request("x".repeat(LIMITS.reportBodyBytes + 1), auth(), true),
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "a gzip body that inflates past the limit",
      req: () =>
        request(
          gzipSync(Buffer.alloc(LIMITS.reportBodyBytes * 4, 32)),
          { ...auth(), "content-encoding": "gzip" },
          true,
        ),
      status: 413,
      code: "payload_too_large",
    },
    {
      name: "a form body",
      req: () => request("a=1", { ...auth(), "content-type": "application/x-www-form-urlencoded" }),
      status: 415,
      code: "unsupported_media_type",
    },
  ];

  for (const c of cases) {
    it(`answers ${c.status} to ${c.name} and stores nothing`, async () => {
      const before = await counts();
      const res = await postReport(c.req(), ctx);
      expect(res.status).toBe(c.status);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe(c.code);
      expect(body.error.message.length).toBeGreaterThan(10);
      if (c.detail) expect(JSON.stringify(body.error)).toMatch(c.detail);
      expect(await counts()).toEqual(before);
    });
  }

  it("reports the database in the health check, and 503 when it is down", async () => {
    const ok = await health();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "ok", database: t.current.kind });
    const raw = new Error('connect ECONNREFUSED 10.0.0.7:5432 (user "storage", database "secret_db")');
    serveRoutesFrom(Promise.reject(raw));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const down = await health();
      expect(down.status).toBe(503);
      const body = (await down.json()) as { error: { code: string; message: string } };
      // The cause, in words an admin can act on; the driver's text (hosts, users) only in the server's log.
      expect(body.error).toEqual({ code: "database_unavailable", message: "The database is unreachable." });
      expect(JSON.stringify(body)).not.toMatch(/10\.0\.0\.7|secret_db|ECONNREFUSED/);
      expect(logged).toHaveBeenCalledWith(expect.any(String), raw);
    } finally {
      logged.mockRestore();
      serveRoutesFrom(t.current);
    }
  });
});
