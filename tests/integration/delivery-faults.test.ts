// Delivery under load and faults, against the built app (`next start`) on a PostgreSQL cluster of the test's own
// (tests/support/private-postgres.ts), reached through a proxy that can cut a connection mid-commit. Workspaces
// are the reporter's own delivery code (scripts/lib/load.ts). Each fault ends with the same check: the database
// holds exactly the reports that were acknowledged, none twice, and nothing is left in the spools.
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type Database } from "@/lib/db/open";
import { REPORT_FORMAT_VERSION } from "@/lib/report-format/constants";
import type { Report } from "@/lib/report-format/schema";
import { deliverAll } from "@/lib/reporter/send/delivery";
import { EXIT } from "@/lib/reporter/exit-codes";
import { DEFAULT_RETRY, gzip, type RetryPolicy } from "@/lib/reporter/send/http";
import { Spool, readToken } from "@/lib/reporter/state";
import { checkExactlyOnce, cleanupJobCreator, jobStates, printLoad, runLoad } from "@/scripts/lib/load";
import { ensureBuild, startNext, type RunningApp } from "@/scripts/lib/next-server";
import { startCutProxy, type CutProxy } from "@/tests/support/cut-proxy";
import { startPrivatePostgres, type PrivatePostgres } from "@/tests/support/private-postgres";

const KEY = "sek_faults_test_key_of_24_characters";
let cluster: PrivatePostgres;
let proxy: CutProxy;
let app: RunningApp;
let database: Database;
let stateRoot: string;
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Retries as the reporter's, with Retry-After's waits shortened so the tests stay short. */
const QUICK: Partial<RetryPolicy> = { attempts: 2, sleep: (ms) => pause(Math.min(ms, 1500)) };

const startApp = (env: Record<string, string> = {}, port?: number) =>
  startNext(
    {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
      STORAGE_ENROLLMENT_KEY: KEY,
      STORAGE_CLEANUP_SCHEDULER: "off",
      ...env,
    },
    { port },
  );

beforeAll(async () => {
  ensureBuild();
  cluster = await startPrivatePostgres();
  const u = new URL(cluster.url);
  proxy = await startCutProxy({ host: u.hostname, port: Number(u.port) });
  app = await startApp();
  database = await openPostgres(cluster.url, 2);
  stateRoot = fs.mkdtempSync(path.join(os.tmpdir(), "delivery-faults-"));
}, 600_000);

afterAll(async () => {
  await database?.close();
  await app?.stop();
  await proxy?.close();
  cluster?.destroy();
  if (stateRoot) fs.rmSync(stateRoot, { recursive: true, force: true });
});

/** The load's result, and when its clock starts (every workspace enrolled): the faults come after that. */
function load(prefix: string, workspaces: number, seconds: number) {
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const running = runLoad({
    url: app.url,
    enrollmentKey: KEY,
    workspaces,
    prefix,
    durationMs: seconds * 1000,
    thinkMs: 1000,
    stateRoot,
    createJobs: cleanupJobCreator(database.db),
    retry: QUICK,
    drainMs: 90_000,
    onStart: start,
  });
  // A load that fails before its clock starts: the test waits no longer, and meets the failure awaiting `running`.
  running.then(start, start);
  return { running, started };
}

async function expectExactlyOnce(prefix: string, result: Awaited<ReturnType<typeof runLoad>>, label: string) {
  const check = await checkExactlyOnce(database.db, prefix, result.acknowledged);
  printLoad(label, new Set(fs.readdirSync(stateRoot).filter((d) => d.startsWith(`${prefix}-`))).size, result, check);
  expect(result.leftInSpools).toBe(0);
  expect(check).toMatchObject({ missing: 0, unacknowledged: 0, doubled: 0 });
  expect(check.stored).toBe(result.acknowledged.size);
  return check;
}

describe("delivery under load and faults (built app, private PostgreSQL)", () => {
  it("load: 100 workspaces for 15 s with cleanup jobs; the database holds exactly the acknowledged reports", async () => {
    const result = await load("ci", 100, 15).running;
    const check = await expectExactlyOnce("ci", result, "load (CI)");
    expect(check.stored).toBeGreaterThan(100); // every workspace more than once
    expect(result.jobs.created).toBeGreaterThan(0);
    expect(result.jobs.completed).toBeGreaterThan(0);
    // every job whose result was acknowledged is done, once
    expect((await jobStates(database.db, "ci")).done).toBe(result.jobs.completed);
  }, 240_000);

  it("PostgreSQL killed mid-load: the routes answer 503 with Retry-After meanwhile; reporters spool and deliver later, each report once", async () => {
    const { running, started } = load("pgkill", 60, 20);
    await started;
    await pause(5000);
    cluster.kill();
    const token = readToken(path.join(stateRoot, "pgkill-0"))!;
    expect(token).toBeTruthy();
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const probes: [string, RequestInit][] = [
      ["/api/v1/health", {}],
      ["/api/v1/reports", { method: "POST", headers: auth, body: "{}" }],
      ["/api/v1/reports/batch", { method: "POST", headers: auth, body: "{}" }],
      ["/api/v1/jobs/claim", { method: "POST", headers: auth, body: "{}" }],
      [
        "/api/v1/enroll",
        {
          method: "POST",
          headers: { "x-enrollment-key": KEY, "content-type": "application/json" },
          body: JSON.stringify({ workspace: { id: "probe", name: "probe", owner: "o" } }),
        },
      ],
      ["/api/v1/workspaces", { headers: { authorization: "Bearer sdt_not_a_real_token" } }],
    ];
    const answers = [];
    try {
      for (const [route, init] of probes) {
        const t = Date.now();
        const res = await fetch(`${app.url}${route}`, { ...init, signal: AbortSignal.timeout(20_000) });
        const code = ((await res.json()) as { error?: { code: string } }).error?.code;
        answers.push({
          route,
          status: res.status,
          retryAfter: res.headers.get("retry-after"),
          code,
          ms: Date.now() - t,
        });
      }
      await pause(3000);
    } finally {
      cluster.start();
    }
    for (const a of answers) {
      expect(a).toEqual({ ...a, status: 503, retryAfter: "5", code: "database_unavailable" });
      expect(a.ms).toBeLessThan(15_000);
    }
    const result = await running;
    expect(result.said.unreachable).toBeGreaterThan(0);
    expect(result.said.spooled).toBeGreaterThan(0);
    await expectExactlyOnce("pgkill", result, "PostgreSQL killed for 8 s");
  }, 300_000);

  it("the app killed with SIGKILL mid-load and restarted: reporters spool and deliver later, each report once", async () => {
    const { running, started } = load("appkill", 60, 20);
    await started;
    await pause(5000);
    app.signal("SIGKILL");
    expect(await app.exited).toBe("SIGKILL");
    await pause(2000);
    app = await startApp({}, app.port);
    const result = await running;
    expect(result.said.unreachable).toBeGreaterThan(0);
    expect(result.said.spooled).toBeGreaterThan(0);
    await expectExactlyOnce("appkill", result, "app killed (SIGKILL) and restarted");
  }, 300_000);

  it("a connection cut after a batch's commit, before its answer: the retry is a duplicate, stored once", async () => {
    const state = path.join(stateRoot, "cut-0");
    fs.mkdirSync(state, { recursive: true });
    const identity = { id: "cut-0", name: "cut-0", owner: "o" };
    const verbose: string[] = [];
    const acknowledged = new Set<string>();
    const run = (server: string) => {
      const report = smallReport(identity);
      return deliverAll({
        server,
        state,
        token: readToken(state),
        identity,
        enrollmentKey: KEY,
        report,
        body: gzip(JSON.stringify(report)),
        log: () => {},
        verbose: (s) => void verbose.push(s),
        retry: { ...DEFAULT_RETRY, ...QUICK, attempts: 3 },
        splayMs: 0,
        acknowledged: (id) => acknowledged.add(id),
      });
    };
    // a backlog of 5 (the dashboard unreachable), then delivered in one batch: one statement, committed on its own,
    // whose answer is cut
    expect(await run(app.url)).toBe(EXIT.OK);
    for (let i = 0; i < 4; i++) expect(await run("http://127.0.0.1:9")).toBe(EXIT.SPOOLED);
    const backlog = new Spool(state).list().map((s) => s.id);
    expect(backlog).toHaveLength(4);
    proxy.arm("ingest_reports(");
    expect(await run(app.url)).toBe(EXIT.OK);
    expect(proxy.cuts()).toBe(1);
    // the batch's five were committed before the cut: the retry found each stored
    for (const id of backlog) expect(verbose).toContain(`report ${id}: duplicate`);
    // and one report alone: its request fails (503), the reporter sends it again, and it is a duplicate
    verbose.length = 0;
    proxy.arm("ingest_reports(");
    expect(await run(app.url)).toBe(EXIT.OK);
    expect(proxy.cuts()).toBe(2);
    expect(verbose.filter((l) => l.endsWith(": duplicate"))).toHaveLength(1);
    const check = await checkExactlyOnce(database.db, "cut", acknowledged);
    console.log(`connection cut mid-commit: ${JSON.stringify(check)}, cuts ${proxy.cuts()}`);
    expect(check).toEqual({ stored: 7, acknowledged: 7, missing: 0, unacknowledged: 0, doubled: 0 });
  }, 120_000);

  it("the reporter's disk full while spooling: it says so, keeps the newest and drops the oldest, counted", async () => {
    const mount = path.join(stateRoot, "full-mount");
    fs.mkdirSync(mount);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", mount]);
    try {
      const state = path.join(mount, "state");
      const identity = { id: "full-0", name: "full-0", owner: "o" };
      const lines: string[] = [];
      const made: string[] = [];
      const run = (server: string, acknowledged?: (id: string) => void) => {
        const report = largeReport(identity);
        made.push(report.id);
        return deliverAll({
          server,
          state,
          token: readToken(state),
          identity,
          enrollmentKey: KEY,
          report,
          body: gzip(JSON.stringify(report)),
          log: (s) => void lines.push(s),
          verbose: () => {},
          retry: { ...DEFAULT_RETRY, ...QUICK },
          splayMs: 0,
          acknowledged,
        });
      };
      // enrolled, then the dashboard unreachable while the disk fills
      const acknowledged = new Set<string>();
      expect(await run(app.url, (id) => acknowledged.add(id))).toBe(EXIT.OK);
      made.length = 0;
      for (let i = 0; i < 16; i++) expect(await run("http://127.0.0.1:9")).toBe(EXIT.SPOOLED);
      const kept = new Spool(state).list().map((s) => s.id);
      const droppedSaid = lines
        .map((l) => /disk full: dropped the (\d+) oldest/.exec(l)?.[1])
        .reduce((s, n) => s + Number(n ?? 0), 0);
      console.log(`disk full: ${made.length} reports made, ${kept.length} kept, ${droppedSaid} dropped (said)`);
      expect(kept.length).toBeGreaterThan(2);
      expect(kept.length).toBeLessThan(16);
      expect(droppedSaid).toBe(16 - kept.length);
      expect(kept).toEqual(made.slice(16 - kept.length)); // the newest, in order
      expect(fs.readdirSync(path.join(state, "spool")).filter((n) => n.startsWith(".tmp"))).toEqual([]);
      // room again on the dashboard's side: the kept ones and a new one are delivered, the dropped never arrive
      const first = [...acknowledged];
      acknowledged.clear();
      expect(await run(app.url, (id) => acknowledged.add(id))).toBe(EXIT.OK);
      expect([...acknowledged].sort()).toEqual([...kept, made.at(-1)!].sort());
      const check = await checkExactlyOnce(database.db, "full", new Set([...first, ...acknowledged]));
      expect(check).toMatchObject({ stored: kept.length + 2, missing: 0, unacknowledged: 0, doubled: 0 });
    } finally {
      execFileSync("umount", [mount]);
    }
  }, 120_000);

  it("the embedded database's folder opened by a second process: refused with a clear message, nothing corrupted", async () => {
    const dir = path.join(stateRoot, "embedded");
    const script = (body: string) =>
      `import { openEmbedded } from "./lib/db/open.ts"; import { sql } from "drizzle-orm";\n` +
      `const d = await openEmbedded(${JSON.stringify(dir)});\n${body}`;
    const node = (code: string) =>
      spawn("node", ["--conditions=react-server", "--import", "tsx", "--input-type=module", "-e", code], {
        cwd: process.cwd(),
        stdio: ["pipe", "pipe", "pipe"],
      });
    const first = node(
      script(
        `await d.db.execute(sql\`insert into settings (key, value) values ('fault-test', 'kept')\`);\n` +
          `console.log("ready"); process.stdin.once("data", async () => { await d.close(); process.exit(0); });`,
      ),
    );
    let out = "";
    first.stdout.on("data", (c) => (out += c));
    first.stderr.on("data", (c) => (out += c));
    for (let i = 0; i < 1800 && !out.includes("ready"); i++) await pause(100);
    expect(out).toContain("ready");
    const second = spawn(
      "node",
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { openEmbedded } from "./lib/db/open.ts";\ntry { await openEmbedded(${JSON.stringify(dir)}); console.log("opened"); } catch (e) { console.log(e.message); process.exit(3); }`,
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] },
    );
    let secondOut = "";
    second.stdout.on("data", (c) => (secondOut += c));
    const code = await new Promise((r) => second.once("exit", r));
    expect(code).toBe(3);
    expect(secondOut).toMatch(/is in use by another process/);
    expect(secondOut).not.toContain("opened");
    first.stdin.write("close\n");
    expect(await new Promise((r) => first.once("exit", r))).toBe(0);
    // the first process's data is whole: a third opens the folder and reads it
    const third = node(
      script(
        `const r = await d.db.execute(sql\`select value from settings where key = 'fault-test'\`);\n` +
          `console.log(JSON.stringify(r.rows)); await d.close();`,
      ),
    );
    let thirdOut = "";
    third.stdout.on("data", (c) => (thirdOut += c));
    expect(await new Promise((r) => third.once("exit", r))).toBe(0);
    expect(thirdOut).toContain('[{"value":"kept"}]');
  }, 180_000);

  it("SIGTERM: new connections are refused, the requests in flight are answered and stored, then the app exits", async () => {
    const tokens = await enrolled("term", 10);
    // Hold ingest on a lock so the requests are surely in flight when the signal comes.
    const locker = new pg.Client({ connectionString: cluster.url });
    await locker.connect();
    await locker.query("begin; lock table reports in exclusive mode");
    const reports = tokens.map(({ identity }) => smallReport(identity));
    const answers = reports.map((r, i) => post("/api/v1/reports", tokens[i].token, r));
    await waitForLockWaiters(locker, 1);
    await pause(3000); // every request accepted by the app, not only the first
    const t0 = Date.now();
    app.signal("SIGTERM");
    await pause(1000);
    await expect(post("/api/v1/health", null, null)).rejects.toThrow(/ECONNREFUSED/);
    await locker.query("commit");
    const settled = await Promise.all(answers);
    expect(settled.map((a) => a.status)).toEqual(reports.map(() => 200));
    expect(settled.map((a) => (a.body as { status: string }).status)).toEqual(reports.map(() => "stored"));
    expect(await app.exited).toBe(143);
    console.log(`SIGTERM: ${settled.length} requests in flight answered 200, exited after ${Date.now() - t0} ms`);
    const ids = new Set(reports.map((r) => r.id));
    expect(await checkExactlyOnce(database.db, "term", ids)).toMatchObject({ stored: 10, missing: 0, doubled: 0 });

    // Bounded: a request that cannot finish does not hold the exit past STORAGE_SHUTDOWN_TIMEOUT.
    app = await startApp({ STORAGE_SHUTDOWN_TIMEOUT: "3" }, app.port);
    await locker.query("begin; lock table reports in exclusive mode");
    const stuck = post("/api/v1/reports", tokens[0].token, smallReport(tokens[0].identity)).catch((e: Error) => e);
    await waitForLockWaiters(locker, 1);
    const t1 = Date.now();
    app.signal("SIGTERM");
    expect(await app.exited).toBe(1);
    const took = Date.now() - t1;
    console.log(`SIGTERM with a request stuck: exited after ${took} ms (bound 3 s)`);
    expect(took).toBeGreaterThanOrEqual(2900);
    expect(took).toBeLessThan(8000);
    expect(await stuck).toBeInstanceOf(Error); // never acknowledged: its reporter sends it again
    await locker.query("rollback");
    await locker.end();
    app = await startApp({}, app.port);
  }, 240_000);
});

function smallReport(ws: { id: string; name: string; owner: string }): Report {
  const now = new Date().toISOString();
  return {
    version: REPORT_FORMAT_VERSION,
    id: randomUUID(),
    collectedAt: now,
    workspace: ws,
    volume: { totalBytes: 2 ** 34, freeBytes: 2 ** 33 },
    reporter: { version: "faults", scanMs: 1 },
    roots: [
      {
        key: "claude-code:data",
        kind: "tool",
        agent: "claude-code",
        path: ".claude",
        bytes: 4096,
        apparentBytes: 4000,
        files: 1,
        dirs: 1,
        oldestMtime: now,
        newestMtime: now,
      },
    ],
  };
}

/** About 40 KB gzipped: roots with random names do not compress. */
function largeReport(ws: { id: string; name: string; owner: string }): Report {
  const r = smallReport(ws);
  const now = r.collectedAt;
  r.roots = Array.from({ length: 400 }, () => {
    const key = `custom:${randomUUID()}${randomUUID()}`;
    return {
      key,
      kind: "custom" as const,
      agent: "other",
      path: `data/${randomUUID()}`,
      bytes: 4096,
      apparentBytes: 4000,
    };
  }).map((x) => ({ ...x, files: 1, dirs: 1, oldestMtime: now, newestMtime: now }));
  return r;
}

async function enrolled(prefix: string, n: number) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const identity = { id: `${prefix}-${i}`, name: `${prefix}-${i}`, owner: "o" };
      const res = await fetch(`${app.url}/api/v1/enroll`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-enrollment-key": KEY },
        body: JSON.stringify({ workspace: identity }),
      });
      expect(res.status).toBe(200);
      return { identity, token: ((await res.json()) as { token: string }).token };
    }),
  );
}

/** A request on a connection of its own (as the reporter sends), so a refused connection shows as such. */
function post(route: string, token: string | null, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const data = body === null ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      `${app.url}${route}`,
      {
        method: data ? "POST" : "GET",
        agent: false,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

async function waitForLockWaiters(client: pg.Client, n: number) {
  for (let i = 0; i < 200; i++) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
    );
    if (rows[0].n >= n) return;
    await pause(100);
  }
  const { rows } = await client.query(
    `select state, wait_event_type, wait_event, left(query, 60) as query from pg_stat_activity where backend_type = 'client backend'`,
  );
  throw new Error(`no request reached the database: ${JSON.stringify(rows)}\n${app.output().slice(-3000)}`);
}
