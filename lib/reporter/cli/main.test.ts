import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { report as reportSchema } from "@/lib/report-format/schema";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "@/scripts/build-reporter.mjs";
import { DEFAULT_RETRY, backoffMs, parseRetryAfter, withRetries, type RetryPolicy } from "../send/http";
import { HELP } from "./command-line";
import { EXIT } from "../exit-codes";
import { main } from "./main";
import { Spool, acquireLock, releaseLock, stateDir } from "../state";
import { buildHome, du } from "@/tests/support/reporter";

let tmp: string;
let home: string;
let bundle: string;

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reporter-main-")));
  fs.chmodSync(tmp, 0o755);
  home = path.join(tmp, "home");
  fs.mkdirSync(home, { mode: 0o755 });
  buildHome(home);
  bundle = await buildReporter(path.join(tmp, "reporter.mjs"));
  fs.chmodSync(bundle, 0o644);
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) } };
}

const IDENTITY = {
  CODER_WORKSPACE_ID: "ws-1",
  CODER_WORKSPACE_NAME: "dev",
  CODER_WORKSPACE_OWNER_NAME: "alice",
  CODER_WORKSPACE_TEMPLATE_NAME: "docker",
  CODER_WORKSPACE_AGENT_NAME: "main",
};

const FAST_RETRY: RetryPolicy = { ...DEFAULT_RETRY, sleep: async () => {} };

describe("command line", () => {
  it("prints help with the exit codes, and the version", async () => {
    const c = capture();
    expect(await main(["--help"], { env: {}, io: c.io })).toBe(0);
    expect(c.out.join("")).toContain("Exit codes");
    expect(HELP).toMatch(/75 /);
    const v = capture();
    expect(await main(["--version"], { env: {}, io: v.io })).toBe(0);
    expect(v.out.join("")).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("names a missing variable in one line and exits 2", async () => {
    for (const missing of [
      "CODER_WORKSPACE_ID",
      "CODER_WORKSPACE_NAME",
      "CODER_WORKSPACE_OWNER_NAME",
      "STORAGE_DASHBOARD_URL",
    ]) {
      const env: Record<string, string> = {
        ...IDENTITY,
        HOME: home,
        STORAGE_DASHBOARD_URL: "http://127.0.0.1:1",
        STORAGE_ENROLLMENT_KEY: "k",
      };
      delete env[missing];
      const c = capture();
      expect(await main([], { env, io: c.io })).toBe(EXIT.USAGE);
      expect(c.err.join("")).toContain(missing);
      expect(c.err.join("").trim().split("\n")).toHaveLength(1);
    }
    const c = capture();
    expect(await main(["--bogus"], { env: {}, io: c.io })).toBe(EXIT.USAGE);
  });

  it("--dry-run prints a valid report with placeholders and sends nothing", async () => {
    const c = capture();
    expect(await main(["--dry-run", "--home", home], { env: {}, io: c.io })).toBe(0);
    const r = JSON.parse(c.out.join(""));
    expect(reportSchema.safeParse(r).success).toBe(true);
    expect(r.workspace).toEqual({ id: "dry-run", name: "dry-run", owner: "dry-run" });
    expect(r.version).toBe(1);
    expect(r.volume.totalBytes).toBeGreaterThan(0);
    expect(fs.existsSync(stateDir(home))).toBe(false);
  });

  it("the built bundle runs, lowers its priority, and has no runtime dependency", () => {
    // the embedded native scanner (base64) may spell anything: it is left out of the search for zod
    const src = fs.readFileSync(bundle, "utf8").replace(/"[A-Za-z0-9+/=]{1000,}"/g, '""');
    expect(src).not.toMatch(/from ["'](?!node:)[^"']+["']/);
    expect(src).not.toContain("zod");
    const r = spawnSync("node", [bundle, "--dry-run", "--home", home], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(reportSchema.safeParse(JSON.parse(r.stdout)).success).toBe(true);
  });

  it("the built bundle carries the native scanner: a dry run measures with it, as find does, and leaves nothing", () => {
    const tmpdir = fs.mkdtempSync(path.join(tmp, "tmpdir-"));
    const run = (scanner: string) => {
      const r = spawnSync("node", [bundle, "--dry-run", "--verbose", "--home", home, "--scanner", scanner], {
        encoding: "utf8",
        env: { ...process.env, TMPDIR: tmpdir },
      });
      expect(r.status).toBe(0);
      return { log: r.stderr, roots: JSON.parse(r.stdout).roots as { key: string; bytes: number }[] };
    };
    const auto = run("auto");
    expect(auto.log).toMatch(/scanned \d+ roots with native/);
    const find = run("find");
    expect(find.log).toMatch(/scanned \d+ roots with find/);
    expect(auto.roots.map((x) => [x.key, x.bytes])).toEqual(find.roots.map((x) => [x.key, x.bytes]));
    // a dry run writes nothing in the state folder: its copy of the scanner was temporary
    expect(fs.existsSync(stateDir(home))).toBe(false);
    expect(fs.readdirSync(tmpdir)).toEqual([]);
  });
});

const canDropPrivileges =
  process.getuid?.() === 0 &&
  spawnSync("setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", "true"]).status === 0;

describe.skipIf(!canDropPrivileges)("an unreadable folder (scan run as user nobody via setpriv)", () => {
  it("is counted once, named in errors, and the numbers still match du run as the same user", () => {
    // one at the first level (whose entries the native scanner's processes share out) and one below it
    const secret = path.join(home, ".claude/secret");
    const locked = path.join(home, ".claude/projects/locked");
    for (const dir of [secret, locked]) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "hidden"), Buffer.alloc(50_000));
      fs.chmodSync(dir, 0o000);
    }
    try {
      for (const scanner of ["native", "find", "node"]) {
        const r = spawnSync(
          "setpriv",
          [
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            "node",
            bundle,
            "--dry-run",
            "--home",
            home,
            "--scanner",
            scanner,
          ],
          { encoding: "utf8" },
        );
        expect(r.status).toBe(0);
        const report = JSON.parse(r.stdout);
        const claude = report.roots.find((x: { key: string }) => x.key === "claude-code:data");
        expect({ scanner, unreadable: claude.unreadable }).toEqual({ scanner, unreadable: 2 });
        for (const at of [".claude/secret", ".claude/projects/locked"])
          expect(report.errors.filter((e: { path: string }) => e.path === at)).toEqual([
            { path: at, code: "EACCES", message: "Permission denied" },
          ]);
        const paths = report.roots.map((x: { path: string }) => path.join(home, x.path));
        const ref = du(paths, ["-B1"], "65534");
        for (const root of report.roots)
          expect({ scanner, key: root.key, bytes: root.bytes }).toEqual({
            scanner,
            key: root.key,
            bytes: ref.get(path.join(home, root.path)),
          });
      }
    } finally {
      for (const dir of [secret, locked]) {
        fs.chmodSync(dir, 0o755);
        fs.rmSync(dir, { recursive: true });
      }
    }
    // three whole scans and three du runs as another user: 65 s on a machine loaded to 14 by other work
  }, 180_000);
});

describe("retries", () => {
  it("back off with full jitter and honour Retry-After", async () => {
    expect(backoffMs(0, { baseMs: 1000, capMs: 20_000, random: () => 0.999 })).toBe(999);
    expect(backoffMs(10, { baseMs: 1000, capMs: 20_000, random: () => 0.5 })).toBe(10_000);
    expect(parseRetryAfter("7")).toBe(7000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
    const waits: number[] = [];
    let n = 0;
    const r = await withRetries(
      async () =>
        ++n < 3 ? { status: 503, body: null, retryAfterMs: 2000 } : { status: 200, body: {}, retryAfterMs: null },
      { ...DEFAULT_RETRY, random: () => 0, sleep: async (ms) => void waits.push(ms) },
    );
    expect(r.status).toBe(200);
    expect(waits).toEqual([2000, 2000]);
    // with jitter: Retry-After and up to as long again, spread by the random draw
    const spread: number[] = [];
    for (const draw of [0, 0.5, 0.999]) {
      let m = 0;
      await withRetries(
        async () =>
          ++m < 2 ? { status: 503, body: null, retryAfterMs: 5000 } : { status: 200, body: {}, retryAfterMs: null },
        { ...DEFAULT_RETRY, random: () => draw, sleep: async (ms) => void spread.push(ms) },
      );
    }
    expect(spread).toEqual([5000, 7500, 9995]);
    // a Retry-After beyond the limit: give up for this run (the report waits in the spool)
    const gaveUp = await withRetries(async () => ({ status: 429, body: null, retryAfterMs: 3_600_000 }), FAST_RETRY);
    expect(gaveUp.status).toBe(429);
  });
});

describe("spool", () => {
  it("is bounded in count and bytes, oldest dropped first, files written atomically", () => {
    const dir = fs.mkdtempSync(path.join(tmp, "spool-"));
    const s = new Spool(dir, 5, 10_000);
    let dropped = 0;
    for (let i = 0; i < 8; i++)
      dropped += s.add(`00000000-0000-4000-8000-00000000000${i}`, Buffer.alloc(100), 1000 + i).dropped.bounds;
    expect(dropped).toBe(3);
    expect(s.list().map((x) => x.id.slice(-1))).toEqual(["3", "4", "5", "6", "7"]);
    expect(s.add("00000000-0000-4000-8000-000000000009", Buffer.alloc(9_950), 2000).dropped.bounds).toBeGreaterThan(0);
    expect(s.list().map((x) => x.id.slice(-1))).toEqual(["9"]);
    expect(fs.readdirSync(path.join(dir, "spool")).filter((n) => n.startsWith(".tmp"))).toEqual([]);
  });

  it("one run at a time", () => {
    const dir = fs.mkdtempSync(path.join(tmp, "lock-"));
    expect(acquireLock(dir)).toBe(true);
    fs.writeFileSync(path.join(dir, "lock"), `${process.ppid} ${Date.now()}\n`); // a live process holds it
    expect(acquireLock(dir)).toBe(false);
    fs.writeFileSync(path.join(dir, "lock"), `999999999 ${Date.now()}\n`); // a dead one: stale
    expect(acquireLock(dir)).toBe(true);
    releaseLock(dir);
    expect(fs.existsSync(path.join(dir, "lock"))).toBe(false);
  });
});

// A fake dashboard whose answers the tests script.
/** `lost`: the request arrives and the connection drops before any answer. */
type Answer = { status: number; body?: unknown; headers?: Record<string, string>; lost?: boolean };
describe("delivery", () => {
  let server: http.Server;
  let url: string;
  /** batch: the answer to a batch of these ids (none: the dashboard has no batch endpoint, 404). */
  let answers: { enroll: Answer[]; reports: Answer[]; batch?: (ids: string[]) => Answer };
  let received: {
    path: string;
    auth?: string;
    id?: string;
    encoding?: string;
    claim?: string;
    noSpace?: boolean;
  }[];
  let batches: string[][];
  let h2: string;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        let body = Buffer.concat(chunks);
        if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
        const json = body.length ? JSON.parse(body.toString()) : null;
        if (req.url === "/api/v1/reports/batch") {
          const ids = (json.reports as { id: string }[]).map((r) => r.id);
          batches.push(ids);
          const a = answers.batch?.(ids) ?? { status: 404 };
          res.writeHead(a.status, { "Content-Type": "application/json", ...a.headers });
          return res.end(JSON.stringify(a.body ?? {}));
        }
        received.push({
          path: req.url!,
          auth: req.headers.authorization,
          id: json?.id,
          encoding: req.headers["content-encoding"],
          claim: json?.claim,
          noSpace: json?.writesFailedNoSpace,
        });
        const list = req.url === "/api/v1/enroll" ? answers.enroll : answers.reports;
        const a = list.length > 1 ? list.shift()! : list[0];
        if (a.lost) return req.socket.destroy();
        res.writeHead(a.status, { "Content-Type": "application/json", ...a.headers });
        res.end(JSON.stringify(a.body ?? {}));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  beforeEach(() => {
    received = [];
    batches = [];
    h2 = fs.mkdtempSync(path.join(tmp, "h2-"));
    fs.mkdirSync(path.join(h2, ".claude"));
    fs.writeFileSync(path.join(h2, ".claude/x"), "x");
  });

  const run = (extra: Record<string, string> = {}) => {
    const c = capture();
    const env = { ...IDENTITY, HOME: h2, STORAGE_DASHBOARD_URL: url, STORAGE_ENROLLMENT_KEY: "sek_x", ...extra };
    return main([], { env, io: c.io, retry: FAST_RETRY }).then((code) => ({ code, log: c.err.join("") }));
  };
  const spoolIds = () => new Spool(stateDir(h2)).list().map((s) => s.id);
  const ok = { status: 200, body: { reportId: "r", status: "stored" } };

  it("enrolls, keeps the token 0600 in a 0700 folder, sends gzipped reports", async () => {
    answers = { enroll: [{ status: 200, body: { workspaceId: "ws-1", token: "swt_1" } }], reports: [ok] };
    const r = await run();
    expect(r.code).toBe(0);
    const dir = stateDir(h2);
    expect(fs.readFileSync(path.join(dir, "token"), "utf8").trim()).toBe("swt_1");
    expect(fs.statSync(path.join(dir, "token")).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    // after the report is delivered, the run asks for its cleanup jobs (none here)
    expect(received.map((x) => x.path)).toEqual(["/api/v1/enroll", "/api/v1/reports", "/api/v1/jobs/claim"]);
    expect(received[1]).toMatchObject({ auth: "Bearer swt_1", encoding: "gzip" });
    expect(received[2]).toMatchObject({ auth: "Bearer swt_1" });
  });

  it("a run whose own write fails for lack of space still sends its report, saying so; the next run does not", async () => {
    answers = { enroll: [{ status: 200, body: { token: "swt_1" } }], reports: [ok] };
    // The run's first write is its lock: the disk (or the user's quota) is full then.
    const quotaFull = Object.assign(new Error("EDQUOT: disk quota exceeded, write"), { code: "EDQUOT" });
    const write = vi.spyOn(fs, "writeSync").mockImplementationOnce(() => {
      throw quotaFull;
    });
    try {
      expect((await run()).code).toBe(0);
    } finally {
      write.mockRestore();
    }
    expect(fs.existsSync(path.join(stateDir(h2), "lock"))).toBe(false);
    expect(received.find((x) => x.path === "/api/v1/reports")?.noSpace).toBe(true);
    received = [];
    expect((await run()).code).toBe(0);
    expect(received.find((x) => x.path === "/api/v1/reports")).toMatchObject({ noSpace: undefined });
  });

  it("spools on 5xx and network errors, then delivers oldest first with the original ids", async () => {
    answers = {
      enroll: [{ status: 200, body: { token: "swt_1" } }],
      reports: [{ status: 503, body: { error: { code: "unavailable", message: "down" } } }],
    };
    expect((await run()).code).toBe(EXIT.SPOOLED);
    answers.reports = [{ status: 500 }];
    expect((await run()).code).toBe(EXIT.SPOOLED);
    const ids = spoolIds();
    expect(ids).toHaveLength(2);
    // unreachable server
    const down = await run({ STORAGE_DASHBOARD_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(EXIT.SPOOLED);
    expect(down.log).toMatch(/cannot reach/);
    expect(spoolIds()).toHaveLength(3);
    received = [];
    answers.reports = [ok];
    expect((await run()).code).toBe(0);
    const sent = received.filter((x) => x.path === "/api/v1/reports").map((x) => x.id);
    expect(sent).toHaveLength(4);
    expect(sent.slice(0, 2)).toEqual(ids); // oldest first, original ids
    expect(spoolIds()).toEqual([]);
  });

  it("sends a backlog in batches, each report acknowledged on its own; a damaged spool file is skipped", async () => {
    answers = { enroll: [{ status: 200, body: { token: "swt_1" } }], reports: [{ status: 503 }] };
    for (let i = 0; i < 24; i++) expect((await run()).code).toBe(EXIT.SPOOLED);
    const spooled = new Spool(stateDir(h2)).list();
    expect(spooled).toHaveLength(24);
    // one file cut short (a crash or a full disk mid-write), one overwritten with garbage
    const truncated = spooled[3];
    fs.truncateSync(truncated.file, Math.floor(fs.statSync(truncated.file).size / 2));
    fs.writeFileSync(spooled[7].file, "not gzip at all");
    const rejected = spooled[10].id;
    const later = spooled[22].id;
    answers.batch = (ids) => ({
      status: 200,
      body: {
        results: ids.map((id) =>
          id === rejected
            ? { id, status: "rejected", error: { code: "invalid", message: "roots.0.key: bad" } }
            : id === later
              ? { id, status: "retry", error: { code: "retry", message: "not now" } }
              : { id, status: id === spooled[0].id ? "duplicate" : "stored", newest: true },
        ),
      },
    });
    received = [];
    batches = [];
    const r = await run();
    expect(r.code).toBe(EXIT.SPOOLED);
    expect(r.log).toContain(`spooled report ${truncated.id} is unreadable`);
    expect(r.log).toContain(`spooled report ${spooled[7].id} is unreadable`);
    expect(r.log).toContain(`report ${rejected} rejected and dropped: roots.0.key: bad`);
    // 22 readable + the new report = 23: a batch of 20, then 3; nothing went one by one
    expect(batches.map((b) => b.length)).toEqual([20, 3]);
    expect(batches.flat()).toEqual([
      ...spooled.filter((_, i) => i !== 3 && i !== 7).map((x) => x.id),
      expect.any(String),
    ]);
    expect(received.filter((x) => x.path === "/api/v1/reports")).toEqual([]);
    // what is left: only the one to retry (the new report behind it was stored)
    expect(spoolIds()).toEqual([later]);
    answers.batch = (ids) => ({
      status: 200,
      body: { results: ids.map((id) => ({ id, status: "stored", newest: true })) },
    });
    expect((await run()).code).toBe(0);
    expect(batches.at(-1)).toEqual([later, expect.any(String)]);
    expect(spoolIds()).toEqual([]);
  });

  it("sends a backlog one by one to a dashboard without the batch endpoint, and honours a batch's 503", async () => {
    answers = { enroll: [{ status: 200, body: { token: "swt_1" } }], reports: [{ status: 503 }] };
    await run();
    await run();
    answers.batch = () => ({ status: 503, headers: { "Retry-After": "0" } });
    batches = [];
    expect((await run()).code).toBe(EXIT.SPOOLED);
    expect(batches).toHaveLength(FAST_RETRY.attempts);
    expect(spoolIds()).toHaveLength(3);
    answers.batch = undefined;
    answers.reports = [ok];
    received = [];
    expect((await run()).code).toBe(0);
    expect(received.filter((x) => x.path === "/api/v1/reports")).toHaveLength(4);
    expect(spoolIds()).toEqual([]);
  });

  it("drops a report the server rejects (4xx) with the server's message", async () => {
    answers = {
      enroll: [{ status: 200, body: { token: "swt_1" } }],
      reports: [{ status: 422, body: { error: { code: "invalid", message: "roots.0.key: bad" } } }],
    };
    const r = await run();
    expect(r.code).toBe(EXIT.REJECTED);
    expect(r.log).toContain("roots.0.key: bad");
    expect(spoolIds()).toEqual([]);
  });

  it("on 401 enrolls again with the old token; if that is refused (409) an admin must reset: exit 3, report kept", async () => {
    answers = {
      enroll: [
        { status: 200, body: { token: "swt_1" } },
        { status: 409, body: { error: { code: "conflict", message: "already enrolled" } } },
      ],
      reports: [{ status: 401, body: { error: { code: "unauthorized", message: "bad token" } } }],
    };
    const r = await run();
    expect(r.code).toBe(EXIT.AUTH);
    expect(r.log).toMatch(/admin must reset/);
    expect(spoolIds()).toHaveLength(1);
    const reenroll = received.filter((x) => x.path === "/api/v1/enroll")[1];
    expect(reenroll.auth).toBe("Bearer swt_1");
  });

  it("an enrollment whose answer was lost is asked again with the same claim; the claim goes once the token is kept", async () => {
    answers = { enroll: [{ status: 200, lost: true }], reports: [ok] };
    expect((await run()).code).toBe(EXIT.SPOOLED);
    const claimFile = path.join(stateDir(h2), "claim");
    expect(fs.statSync(claimFile).mode & 0o777).toBe(0o600);
    answers = { enroll: [{ status: 200, body: { token: "swt_1" } }], reports: [ok] };
    expect((await run()).code).toBe(0);
    const claims = received.filter((x) => x.path === "/api/v1/enroll").map((x) => x.claim);
    expect(claims.length).toBeGreaterThanOrEqual(2);
    expect(claims[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(claims).size).toBe(1);
    expect(fs.existsSync(claimFile)).toBe(false);
    expect(fs.readFileSync(path.join(stateDir(h2), "token"), "utf8").trim()).toBe("swt_1");
  });

  it("after an admin reset, a 401 heals by enrolling again", async () => {
    answers = { enroll: [{ status: 200, body: { token: "swt_1" } }], reports: [ok] };
    await run();
    answers = { enroll: [{ status: 200, body: { token: "swt_2" } }], reports: [{ status: 401 }, ok] };
    expect((await run()).code).toBe(0);
    expect(fs.readFileSync(path.join(stateDir(h2), "token"), "utf8").trim()).toBe("swt_2");
  });

  it("a wrong enrollment key exits 3", async () => {
    answers = {
      enroll: [{ status: 401, body: { error: { code: "unauthorized", message: "wrong key" } } }],
      reports: [ok],
    };
    const r = await run();
    expect(r.code).toBe(EXIT.AUTH);
    expect(r.log).toMatch(/enrollment key is wrong/);
  });
});
