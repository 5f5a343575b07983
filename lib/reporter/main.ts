// The reporter's command line: scan, build one report, deliver it (and any spooled ones), then cleanup jobs.

import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LIMITS, REPORT_FORMAT_VERSION } from "@/lib/report/constants";
import type { Report, Volume, WorkspaceIdentity } from "@/lib/report/schema";
import { volumeFromStatfs } from "@/lib/report/volume";
import { DEFAULT_RETRY, NetworkError, gunzip, gzip, request, serverMessage, withRetries, type HttpResult, type RetryPolicy } from "./http";
import { runCleanupJobs } from "./jobs";
import { discoverRoots, readConfig } from "./roots";
import { scanRoots, type ScannerMode } from "./scan";
import { Spool, acquireLock, ensureDir, readToken, releaseLock, stateDir, writeToken } from "./state";
import { REPORTER_VERSION } from "./version";

export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  AUTH: 3,
  REJECTED: 4,
  SPOOLED: 75,
} as const;

export const HELP = `coder storage reporter ${REPORTER_VERSION}
Measures the AI agents' storage in this workspace's home folder and sends one report to the storage dashboard.

Usage: node reporter.mjs [options]

Options:
  --server URL          dashboard URL (default: $STORAGE_DASHBOARD_URL)
  --home DIR            home folder to measure (default: $HOME)
  --config FILE         extra roots (default: ~/.coder-modules/coder/storage-reporter/config.json)
  --state-dir DIR       where the token and the spool live (default: ~/.coder-modules/coder/storage-reporter)
  --workspace-id ID     (default: $CODER_WORKSPACE_ID)
  --workspace-name NAME (default: $CODER_WORKSPACE_NAME)
  --owner NAME          (default: $CODER_WORKSPACE_OWNER_NAME)
  --template NAME       (default: $CODER_WORKSPACE_TEMPLATE_NAME)
  --agent-name NAME     (default: $CODER_WORKSPACE_AGENT_NAME)
  --scanner MODE        auto (default), find or node
  --splay SECONDS       wait a random 0..SECONDS before contacting the server (spreads a fleet's cron runs)
  --dry-run             print the report as JSON on stdout, send nothing
  --verbose             more log lines on stderr
  --help, --version

Environment: STORAGE_DASHBOARD_URL, STORAGE_ENROLLMENT_KEY (needed once, to enroll), CODER_WORKSPACE_ID,
CODER_WORKSPACE_NAME, CODER_WORKSPACE_OWNER_NAME, CODER_WORKSPACE_TEMPLATE_NAME, CODER_WORKSPACE_AGENT_NAME,
CLAUDE_CONFIG_DIR, CODEX_HOME, CODER_SCRIPT_DATA_DIR.

Exit codes:
  0   report delivered (or --dry-run, --help, --version; or another run is in progress)
  1   unexpected error
  2   usage or configuration error (a missing variable is named)
  3   authentication: enrollment key rejected, or the workspace token is no longer valid
      (an admin must reset the workspace in the dashboard); the report is kept in the spool
  4   the server rejected the report (4xx): it was dropped
  75  the server could not be reached (or answered 5xx/429): the report was spooled for the next run
`;

export type Io = {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
};

type Options = {
  server?: string;
  home?: string;
  config?: string;
  stateDir?: string;
  id?: string;
  name?: string;
  owner?: string;
  template?: string;
  agentName?: string;
  scanner: ScannerMode;
  splay: number;
  dryRun: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
};

class UsageError extends Error {}

const VALUE_FLAGS: Record<string, keyof Options> = {
  "--server": "server",
  "--home": "home",
  "--config": "config",
  "--state-dir": "stateDir",
  "--workspace-id": "id",
  "--workspace-name": "name",
  "--owner": "owner",
  "--template": "template",
  "--agent-name": "agentName",
  "--scanner": "scanner",
  "--splay": "splay",
};

export function parseArgs(argv: string[]): Options {
  const o: Options = { scanner: "auto", splay: 0, dryRun: false, verbose: false, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let value: string | undefined;
    const eq = a.indexOf("=");
    if (a.startsWith("--") && eq > 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (a === "--dry-run") o.dryRun = true;
    else if (a === "--verbose" || a === "-v") o.verbose = true;
    else if (a === "--help" || a === "-h") o.help = true;
    else if (a === "--version" || a === "-V") o.version = true;
    else if (a in VALUE_FLAGS) {
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new UsageError(`${a} needs a value`);
      }
      const key = VALUE_FLAGS[a];
      if (key === "scanner") {
        if (!["auto", "find", "node"].includes(value)) throw new UsageError(`--scanner must be auto, find or node`);
        o.scanner = value as ScannerMode;
      } else if (key === "splay") {
        const n = Number(value);
        if (!Number.isFinite(n) || n < 0) throw new UsageError(`--splay needs a number of seconds`);
        o.splay = n;
      } else (o as Record<string, unknown>)[key] = value;
    } else throw new UsageError(`unknown option ${a} (see --help)`);
  }
  return o;
}

export type MainDeps = {
  env: Record<string, string | undefined>;
  io: Io;
  retry?: RetryPolicy;
  now?: () => Date;
};

export async function main(argv: string[], deps: MainDeps): Promise<number> {
  const { env, io } = deps;
  const log = (s: string) => io.stderr(`storage-reporter: ${s}\n`);
  let opts: Options;
  try {
    opts = parseArgs(argv);
  } catch (err) {
    log((err as Error).message);
    return EXIT.USAGE;
  }
  if (opts.help) {
    io.stdout(HELP);
    return EXIT.OK;
  }
  if (opts.version) {
    io.stdout(REPORTER_VERSION + "\n");
    return EXIT.OK;
  }
  const verbose = (s: string) => opts.verbose && log(s);

  // Be a quiet neighbour: lowest CPU priority (and with it, the lowest best-effort I/O priority) for us and
  // the find processes we start.
  try {
    os.setPriority(19);
  } catch {
    /* not allowed: carry on */
  }

  // configuration, checked before any scanning
  const homeArg = opts.home ?? env.HOME;
  if (!homeArg) {
    log("HOME is not set (or pass --home DIR)");
    return EXIT.USAGE;
  }
  let home: string;
  try {
    home = fs.realpathSync(path.resolve(homeArg));
  } catch {
    log(`home folder ${homeArg} does not exist`);
    return EXIT.USAGE;
  }
  const dry = opts.dryRun;
  const server = (opts.server ?? env.STORAGE_DASHBOARD_URL ?? "").replace(/\/+$/, "");
  const idSources: [keyof WorkspaceIdentity, string | undefined, string][] = [
    ["id", opts.id ?? env.CODER_WORKSPACE_ID, "CODER_WORKSPACE_ID"],
    ["name", opts.name ?? env.CODER_WORKSPACE_NAME, "CODER_WORKSPACE_NAME"],
    ["owner", opts.owner ?? env.CODER_WORKSPACE_OWNER_NAME, "CODER_WORKSPACE_OWNER_NAME"],
  ];
  const identity: WorkspaceIdentity = { id: "dry-run", name: "dry-run", owner: "dry-run" };
  for (const [field, value, variable] of idSources) {
    if (value) identity[field] = value.slice(0, field === "id" ? 100 : 200);
    else if (!dry) {
      log(`${variable} is not set (or pass --${field === "id" ? "workspace-id" : field === "name" ? "workspace-name" : "owner"})`);
      return EXIT.USAGE;
    }
  }
  if (!/^[A-Za-z0-9._-]+$/.test(identity.id)) {
    log(`CODER_WORKSPACE_ID has characters other than letters, digits and . _ -`);
    return EXIT.USAGE;
  }
  const template = opts.template ?? env.CODER_WORKSPACE_TEMPLATE_NAME;
  if (template) identity.template = template.slice(0, 200);
  const agentName = opts.agentName ?? env.CODER_WORKSPACE_AGENT_NAME;
  if (agentName) identity.agent = agentName.slice(0, 200);

  const state = opts.stateDir ? path.resolve(opts.stateDir) : stateDir(home);
  let token: string | null = null;
  if (!dry) {
    if (!server) {
      log("STORAGE_DASHBOARD_URL is not set (or pass --server URL)");
      return EXIT.USAGE;
    }
    if (!/^https?:\/\//.test(server)) {
      log(`the dashboard URL must start with http:// or https:// (got ${server})`);
      return EXIT.USAGE;
    }
    token = readToken(state);
    if (!token && !env.STORAGE_ENROLLMENT_KEY) {
      log("STORAGE_ENROLLMENT_KEY is not set and this workspace has no token yet (needed once, to enroll)");
      return EXIT.USAGE;
    }
  }

  let configFile = opts.config ?? path.join(state, "config.json");
  let config;
  try {
    config = readConfig(configFile);
  } catch (err) {
    log((err as Error).message);
    return EXIT.USAGE;
  }
  if (opts.config && config === null) {
    log(`config file ${opts.config} does not exist`);
    return EXIT.USAGE;
  }
  configFile = path.resolve(configFile);

  if (!dry) {
    ensureDir(state);
    if (!acquireLock(state)) {
      log("another run is in progress: nothing to do");
      return EXIT.OK;
    }
  }
  try {
    const report = await collect(home, env, identity, config, opts, deps.now?.() ?? new Date(), verbose);
    if (dry) {
      io.stdout(JSON.stringify(report, null, 2) + "\n");
      return EXIT.OK;
    }
    const body = gzip(JSON.stringify(report));
    const code = await deliverAll({
      server,
      state,
      token,
      identity,
      enrollmentKey: env.STORAGE_ENROLLMENT_KEY ?? null,
      report,
      body,
      log,
      verbose,
      retry: deps.retry ?? DEFAULT_RETRY,
      splayMs: opts.splay * 1000,
    });
    if (code !== EXIT.OK) return code;
    const jobsCode = await runCleanupJobs({ server, token: readToken(state) ?? "", home, log });
    return jobsCode;
  } finally {
    if (!dry) releaseLock(state);
  }
}

async function collect(
  home: string,
  env: Record<string, string | undefined>,
  identity: WorkspaceIdentity,
  config: ReturnType<typeof readConfig>,
  opts: Options,
  now: Date,
  verbose: (s: string) => void,
): Promise<Report> {
  const started = performance.now();
  const notes: string[] = [];
  const specs = discoverRoots({ home, env, config, notes });
  for (const n of notes) verbose(n);
  const nowSec = Math.floor(now.getTime() / 1000);
  const scan = await scanRoots(specs, nowSec, { mode: opts.scanner, home });
  const scanMs = Math.round((performance.now() - started) * 10) / 10;
  verbose(`scanned ${scan.roots.length} roots with ${scan.scanner} in ${scanMs} ms`);
  const report: Report = {
    version: REPORT_FORMAT_VERSION,
    id: crypto.randomUUID(),
    collectedAt: now.toISOString(),
    workspace: identity,
    volume: volumeOf(home),
    reporter: { version: REPORTER_VERSION, scanMs },
    roots: scan.roots.slice(0, LIMITS.roots),
  };
  if (scan.errors.items.length) report.errors = scan.errors.items;
  if (scan.errors.dropped) verbose(`${scan.errors.dropped} more scan errors not listed`);
  return report;
}

/** The volume holding `dir` as df shows it; null where statfs is missing (Node before 18.15) or fails. */
export function volumeOf(dir: string): Volume | null {
  if (typeof fs.statfsSync !== "function") return null;
  try {
    return volumeFromStatfs(fs.statfsSync(dir));
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// delivery

type DeliverCtx = {
  server: string;
  state: string;
  token: string | null;
  identity: WorkspaceIdentity;
  enrollmentKey: string | null;
  report: Report;
  body: Buffer;
  log: (s: string) => void;
  verbose: (s: string) => void;
  retry: RetryPolicy;
  splayMs: number;
};

type Outcome = "stored" | "rejected" | "unreachable" | "unauthorized";

async function postReport(ctx: DeliverCtx, token: string, body: Buffer): Promise<HttpResult> {
  return withRetries(
    () =>
      request(`${ctx.server}/api/v1/reports`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Encoding": "gzip" },
        body,
      }),
    ctx.retry,
  );
}

/** Enrolls (or re-enrolls with the current token). Returns the new token, or an exit code. */
async function enroll(ctx: DeliverCtx, current: string | null): Promise<string | number> {
  if (!ctx.enrollmentKey) {
    ctx.log(
      `the workspace token is not valid and STORAGE_ENROLLMENT_KEY is not set: an admin must reset workspace ${ctx.identity.id} and the key must be available`,
    );
    return EXIT.AUTH;
  }
  const headers: Record<string, string> = { "X-Enrollment-Key": ctx.enrollmentKey, "Content-Type": "application/json" };
  if (current) headers.Authorization = `Bearer ${current}`;
  let r: HttpResult;
  try {
    r = await withRetries(
      () => request(`${ctx.server}/api/v1/enroll`, { method: "POST", headers, body: Buffer.from(JSON.stringify({ workspace: ctx.identity })) }),
      ctx.retry,
    );
  } catch (err) {
    if (err instanceof NetworkError) return EXIT.SPOOLED;
    throw err;
  }
  if (r.status === 200) {
    const token = (r.body as { token?: unknown } | null)?.token;
    if (typeof token !== "string" || !token) {
      ctx.log("enrollment answered without a token");
      return EXIT.SPOOLED;
    }
    writeToken(ctx.state, token);
    ctx.log(`enrolled workspace ${ctx.identity.id}`);
    return token;
  }
  if (r.status === 429 || r.status >= 500) return EXIT.SPOOLED;
  if (r.status === 401) {
    ctx.log(`enrollment refused: the enrollment key is wrong (${serverMessage(r)})`);
    return EXIT.AUTH;
  }
  if (r.status === 409) {
    ctx.log(
      `workspace ${ctx.identity.id} is already enrolled and this workspace's token is ${current ? "no longer valid" : "missing"}: ` +
        `an admin must reset the workspace in the dashboard (${serverMessage(r)})`,
    );
    return EXIT.AUTH;
  }
  ctx.log(`enrollment refused: ${serverMessage(r)}`);
  return EXIT.AUTH;
}

async function sendOne(ctx: DeliverCtx, token: string, id: string, body: Buffer): Promise<Outcome> {
  let r: HttpResult;
  try {
    r = await postReport(ctx, token, body);
  } catch (err) {
    if (err instanceof NetworkError) {
      ctx.log(`cannot reach the dashboard: ${err.message}`);
      return "unreachable";
    }
    throw err;
  }
  if (r.status === 200) {
    const status = (r.body as { status?: string } | null)?.status ?? "stored";
    ctx.verbose(`report ${id}: ${status}`);
    return "stored";
  }
  if (r.status === 429 || r.status >= 500) {
    ctx.log(`the dashboard is not accepting reports now: ${serverMessage(r)}`);
    return "unreachable";
  }
  if (r.status === 401) return "unauthorized";
  ctx.log(`report ${id} rejected and dropped: HTTP ${r.status}: ${serverMessage(r)}`);
  return "rejected";
}

async function deliverAll(ctx: DeliverCtx): Promise<number> {
  const spool = new Spool(ctx.state);
  const spoolNew = (why: string) => {
    const dropped = spool.add(ctx.report.id, ctx.body, Date.parse(ctx.report.collectedAt));
    ctx.log(`report ${ctx.report.id} spooled (${why}); ${spool.list().length} waiting`);
    if (dropped) ctx.log(`spool full: dropped the ${dropped} oldest report(s)`);
  };
  if (ctx.splayMs > 0) await new Promise((r) => setTimeout(r, Math.floor(Math.random() * ctx.splayMs)));

  let token = ctx.token;
  let reenrolled = false;
  if (!token) {
    const t = await enroll(ctx, null);
    if (typeof t === "number") {
      spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "not enrolled");
      return t;
    }
    token = t;
  }

  const queue: { id: string; body: () => Buffer; spooled: ReturnType<Spool["list"]>[number] | null }[] = spool
    .list()
    .map((s) => ({ id: s.id, body: () => spool.read(s), spooled: s }));
  queue.push({ id: ctx.report.id, body: () => ctx.body, spooled: null });

  let delivered = 0;
  let newOutcome: Outcome = "stored";
  for (const item of queue) {
    let body: Buffer;
    try {
      body = item.body();
      if (item.spooled) gunzip(body); // a damaged spool file is dropped, not sent forever
    } catch {
      ctx.log(`spooled report ${item.id} is unreadable: dropped`);
      if (item.spooled) spool.remove(item.spooled);
      continue;
    }
    let outcome = await sendOne(ctx, token, item.id, body);
    if (outcome === "unauthorized" && !reenrolled) {
      // After an admin's reset the token is gone on the server: enrolling again (presenting the old token)
      // gets a new one. Without a reset the server answers 409 and an admin has to act.
      reenrolled = true;
      ctx.log("the dashboard does not accept this workspace's token; trying to enroll again");
      const t = await enroll(ctx, token);
      if (typeof t === "number") {
        spoolNew(t === EXIT.SPOOLED ? "cannot enroll now" : "token not valid");
        return t;
      }
      token = t;
      outcome = await sendOne(ctx, token, item.id, body);
    }
    if (outcome === "unauthorized") {
      ctx.log(`the workspace token is not valid: an admin must reset workspace ${ctx.identity.id} in the dashboard`);
      spoolNew("token not valid");
      return EXIT.AUTH;
    }
    if (outcome === "unreachable") {
      spoolNew("dashboard unreachable");
      return EXIT.SPOOLED;
    }
    if (item.spooled) spool.remove(item.spooled);
    if (outcome === "stored") delivered++;
    if (!item.spooled) newOutcome = outcome;
  }
  if (newOutcome === "rejected") return EXIT.REJECTED;
  ctx.log(
    `report ${ctx.report.id} sent: ${ctx.report.roots.length} roots, ${ctx.report.roots.reduce((s, r) => s + r.bytes, 0)} bytes` +
      (delivered > 1 ? `; ${delivered - 1} spooled report(s) delivered too` : ""),
  );
  return EXIT.OK;
}
