// Starts the dashboard for browser tests and scripts: builds when the build is missing or stale (always when
// CI=true), seeds a fresh embedded database with the demo fleet, runs `next start` on a free port and waits
// for /api/v1/health.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const ROOT = process.cwd();
const SOURCES = ["app", "components", "lib", "public", "next.config.ts", "package.json", "tsconfig.json"];

export type Dashboard = { url: string; dataDir: string; stop: () => Promise<void> };

function newestMtime(p: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".") || e.name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, e.name)));
  }
  return newest;
}

export function buildIsStale(): boolean {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(id)) return true;
  const built = fs.statSync(id).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${r.status}):\n${(r.stdout ?? "").slice(-4000)}\n${(r.stderr ?? "").slice(-4000)}`);
  }
}

export function ensureBuild() {
  if (process.env.CI === "true" || buildIsStale()) {
    console.log("[browser] building the app (npm run build)…");
    run("npm", ["run", "build"]);
  }
}

export function seedDemo(dataDir: string, workspaces: number, days: number) {
  const env = { ...process.env, STORAGE_DATA_DIR: dataDir };
  const script = fs.existsSync(path.join(ROOT, "scripts", "demo.ts")) ? "scripts/demo.ts" : null;
  if (!script) throw new Error("scripts/demo.ts is missing: it seeds the demo fleet for the browser tests.");
  run("node", ["--import", "tsx", script, "--seed-only", "--workspaces", String(workspaces), "--days", String(days)], env);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`The dashboard did not become healthy within ${timeoutMs / 1000}s:\n${log()}`);
}

/** Builds if needed, seeds a fresh database, starts `next start`; stop() kills it and removes the data. */
export async function startDashboard(opts: { workspaces?: number; days?: number } = {}): Promise<Dashboard> {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-browser-"));
  const pgliteDir = path.join(dataDir, "pglite");
  seedDemo(pgliteDir, opts.workspaces ?? 60, opts.days ?? 30);
  const port = await freePort();
  let output = "";
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, STORAGE_DATA_DIR: pgliteDir, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  // The server's log is kept in .test-data/ (git-ignored) to diagnose a failed run.
  fs.mkdirSync(path.join(ROOT, ".test-data"), { recursive: true });
  const logFile = fs.createWriteStream(path.join(ROOT, ".test-data", "browser-next.log"));
  const keep = (d: Buffer) => {
    output = (output + d).slice(-20_000);
    logFile.write(d);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    logFile.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(`${pgliteDir}.lock`, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, dataDir: pgliteDir, stop };
}
