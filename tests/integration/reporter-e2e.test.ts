// End to end: the built public reporter bundle, run as a child process, against a small node:http server that
// calls the real domain functions (enrollment, authentication, schema validation, ingest) on an in-memory
// PGlite database. The server is stopped to simulate an outage and restarted on the same port.

import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import type { Database } from "@/lib/db/open";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { openMigratedEmbedded } from "@/tests/support/db";
import { authenticateWorkspace, enrollWorkspace } from "@/lib/enrollment/workspaces";
import { AppError } from "@/lib/errors";
import { ingestReport } from "@/lib/ingest/report";
import { enrollRequest, report as reportSchema } from "@/lib/report-format/schema";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "@/scripts/build-reporter.mjs";
import { FLEET } from "@/lib/db/scope";

const KEY = "sek_e2e_test_key_of_24_characters";
let database: Database;
let tmp: string;
let bundle: string;
let home: string;
let port = 0;
let server: http.Server | null = null;
/** When set, the next report is stored but its response is lost (the connection is cut). */
let loseNextResponse = false;

function envelope(res: http.ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ error: { code, message, details: null } }));
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let body = Buffer.concat(chunks);
  try {
    if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
    if (req.method === "GET" && req.url === "/api/v1/health") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ status: "ok" }));
    }
    if (req.method === "POST" && req.url === "/api/v1/enroll") {
      const parsed = enrollRequest.safeParse(JSON.parse(body.toString()));
      if (!parsed.success) return envelope(res, 422, "invalid", parsed.error.message);
      const key = (req.headers["x-enrollment-key"] as string | undefined) ?? null;
      const out = await enrollWorkspace(database.db, parsed.data.workspace, key, bearer);
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(out));
    }
    if (req.method === "POST" && req.url === "/api/v1/reports") {
      const workspaceId = await authenticateWorkspace(database.db, bearer);
      const parsed = reportSchema.safeParse(JSON.parse(body.toString()));
      if (!parsed.success) return envelope(res, 422, "invalid", parsed.error.message);
      const result = await ingestReport(database.db, workspaceId, parsed.data);
      if (loseNextResponse) {
        loseNextResponse = false;
        return req.socket.destroy();
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(result));
    }
    envelope(res, 404, "not_found", "no such route");
  } catch (err) {
    if (err instanceof AppError) return envelope(res, err.status, err.code, err.message);
    envelope(res, 500, "internal", (err as Error).message);
  }
}

async function startServer() {
  server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
}

async function stopServer() {
  const s = server!;
  server = null;
  s.closeAllConnections();
  await new Promise<void>((resolve) => s.close(() => resolve()));
}

function runReporter(): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("node", [bundle], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        STORAGE_DASHBOARD_URL: `http://127.0.0.1:${port}`,
        STORAGE_ENROLLMENT_KEY: KEY,
        CODER_WORKSPACE_ID: "7b0e6a34-5e0f-4d4e-9a43-0c6f6d1f0e21",
        CODER_WORKSPACE_NAME: "dev",
        CODER_WORKSPACE_OWNER_NAME: "alice",
        CODER_WORKSPACE_TEMPLATE_NAME: "docker",
        CODER_WORKSPACE_AGENT_NAME: "main",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d));
    child.on("close", (code: number | null) => resolve({ code, stderr }));
  });
}

async function reportRows(): Promise<{ id: string }[]> {
  const r = await database.db.execute(sql`select id from reports order by received_at`);
  return ((r as unknown as { rows?: { id: string }[] }).rows ?? (r as unknown as { id: string }[])) as { id: string }[];
}

function spooled(): string[] {
  const dir = path.join(home, ".coder-modules/coder/storage-reporter/spool");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith(".json.gz"))
        .sort()
    : [];
}

beforeAll(async () => {
  process.env.STORAGE_ENROLLMENT_KEY = KEY;
  resetConfigForTests();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-e2e-"));
  home = path.join(tmp, "home");
  fs.mkdirSync(path.join(home, ".claude/projects/-w"), { recursive: true });
  fs.writeFileSync(
    path.join(home, ".claude/projects/-w/5f0c4c1e-9f59-4d0e-8a43-1f2e3d4c5b6a.jsonl"),
    "{}\n".repeat(1000),
  );
  fs.mkdirSync(path.join(home, ".coder-modules/coder/claude-code/logs"), { recursive: true });
  fs.writeFileSync(path.join(home, ".coder-modules/coder/claude-code/logs/x.log"), "log\n");
  fs.writeFileSync(path.join(home, ".coder-modules/coder/claude-code/agentapi-state.json"), "{}".repeat(450));
  bundle = await buildReporter(path.join(tmp, "reporter.mjs"));
  database = await openMigratedEmbedded();
  await startServer();
}, 120_000);

afterAll(async () => {
  if (server) await stopServer();
  await database?.close();
  delete process.env.STORAGE_ENROLLMENT_KEY;
  resetConfigForTests();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("reporter against a running dashboard", () => {
  it("enrolls, stores a report, spools through an outage and delivers each spooled report exactly once", async () => {
    const first = await runReporter();
    expect(first.code, first.stderr).toBe(0);
    expect(fs.statSync(path.join(home, ".coder-modules/coder/storage-reporter/token")).mode & 0o777).toBe(0o600);
    expect(await reportRows()).toHaveLength(1);

    await stopServer();
    for (let i = 0; i < 2; i++) {
      const r = await runReporter();
      expect(r.code, r.stderr).toBe(75);
      expect(r.stderr).toMatch(/spooled/);
    }
    const waiting = spooled();
    expect(waiting).toHaveLength(2);
    const waitingIds = waiting.map((n) => n.slice(16, 52));

    await startServer(); // same port, same database
    const back = await runReporter();
    expect(back.code, back.stderr).toBe(0);
    expect(spooled()).toEqual([]);
    const rows = await reportRows();
    // 1 before the outage + the 2 spooled ones + the report of the run that delivered them
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.id)).size).toBe(4);
    for (const id of waitingIds) expect(rows.filter((r) => r.id === id)).toHaveLength(1);
    // delivered oldest first, right after the first report
    expect(rows.slice(1, 3).map((r) => r.id)).toEqual(waitingIds);
  });

  it("a response lost after the server stored the report: the retry is a duplicate, not a second row", async () => {
    const before = (await reportRows()).length;
    loseNextResponse = true;
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    expect(await reportRows()).toHaveLength(before + 1);
  });

  it("shows the folder as du and the volume as df show them, through ingest to the workspace page's data", async () => {
    const df = () =>
      execFileSync("df", ["--output=pcent,ipcent", home], { encoding: "utf8" }).split("\n")[1].trim().split(/\s+/);
    const before = df();
    const r = await runReporter();
    expect(r.code, r.stderr).toBe(0);
    const after = df();
    const detail = (await getWorkspaceDetail(database.db, FLEET, "7b0e6a34-5e0f-4d4e-9a43-0c6f6d1f0e21"))!;
    const v = detail.workspace.volume!;
    // df's Use% and IUse% at the moment of the run (taken just before and after it).
    expect([before[0], after[0]]).toContain(`${v.usePercent}%`);
    if (v.inodes) expect([before[1], after[1]]).toContain(`${v.inodes.usePercent}%`);
    const du = (dir: string) => Number(execFileSync("du", ["-sxB1", dir], { encoding: "utf8" }).split("\t")[0]);
    const mod = detail.roots.find((x) => x.key === "coder/claude-code")!;
    // The leftover is inside its module folder's figure, and listed.
    expect(mod.bytes).toBe(du(path.join(home, ".coder-modules/coder/claude-code")));
    expect(mod.leftovers.map((l) => [l.path, l.apparentBytes])).toEqual([["agentapi-state.json", 900]]);
    expect(detail.roots.some((x) => x.kind === "leftover")).toBe(false);
    // The whole home is du -sxB1 ~, but for the reporter's own folder, which the run changes (its lock file).
    const own = ".coder-modules/coder/storage-reporter";
    const ownRoots = detail.roots.filter((x) => x.path === own || x.path.startsWith(own + "/"));
    const h = detail.workspace.home!;
    expect(h.bytes - ownRoots.reduce((s, x) => s + x.bytes, 0)).toBe(du(home) - du(path.join(home, own)));
  });
});

describe("the bundle's start", () => {
  it("loads no built-in module a run may not need, and the module's script gives Node no V8 flag", () => {
    // Node's built-in modules come compiled in its binary; any V8 flag on the command line makes Node compile
    // them again at every start (30 ms and more, more than du takes on a small home).
    const script = fs.readFileSync(path.join(process.cwd(), "deploy/coder/scripts/run.sh.tftpl"), "utf8");
    expect(/"\$NODE"(.*)"\$file" --state-dir/.exec(script)?.[1].trim()).toBe("");
    const probe = path.join(tmp, "loaded.cjs");
    fs.writeFileSync(
      probe,
      'process.on("exit", () => require("fs").writeSync(2, "\\nLOADED " + process.moduleLoadList.join(",")));',
    );
    // with find, the native scanner is not written (zlib would be loaded to unpack it)
    const r = spawnSync(
      process.execPath,
      ["--require", probe, bundle, "--dry-run", "--scanner", "find", "--home", home],
      {
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(0);
    const loaded = r.stderr.split("LOADED ")[1].split(",");
    expect(loaded).toContain("NativeModule child_process"); // the probe sees what the bundle loads
    for (const name of ["zlib", "http", "https", "tls"]) expect(loaded).not.toContain(`NativeModule ${name}`);
    // jsonc-parser's formatter tables (built at load, never used: the reporter only parses)
    expect(fs.readFileSync(bundle, "utf8")).not.toContain("cachedBreakLinesWithSpaces");
  });
});
