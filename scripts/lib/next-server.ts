// Starts the built app with `next start` on a free port for tests, benchmarks and screenshots.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const ROOT = process.cwd();
const SOURCES = [
  "app",
  "components",
  "lib",
  "public",
  "drizzle",
  "deploy/coder",
  "scripts/node-runtime.json",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
];

export type RunningApp = {
  url: string;
  port: number;
  /** The `next` process, leader of the server's process group (its workers included). */
  pid: number;
  stop: () => Promise<void>;
  output: () => string;
  /** Sends `signal` to the server's processes (SIGTERM: a graceful stop; SIGKILL: a crash). */
  signal: (signal: NodeJS.Signals) => void;
  /** Settles when the server process has exited: its exit code, or the signal that ended it. */
  exited: Promise<number | NodeJS.Signals>;
};

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

/** True when there is no build, or a source file changed after it. */
export function buildIsStale(): boolean {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(id)) return true;
  const built = fs.statSync(id).mtimeMs;
  return SOURCES.some((s) => newestMtime(path.join(ROOT, s)) > built);
}

export function ensureBuild() {
  if (!buildIsStale()) return;
  console.log("[app] building (npm run build)…");
  const r = spawnSync("npm", ["run", "build"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0)
    throw new Error(`npm run build failed (exit ${r.status}):\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);
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

/**
 * Runs `next start` with `env` added to this process's environment and waits until /api/v1/health is 200.
 * With `logFile`, everything the server prints is also written there.
 */
export async function startNext(
  env: Record<string, string>,
  opts: { logFile?: string; timeoutMs?: number; port?: number } = {},
): Promise<RunningApp> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const port = opts.port ?? (await freePort());
  let log = "";
  let file: fs.WriteStream | undefined;
  if (opts.logFile) {
    fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
    file = fs.createWriteStream(opts.logFile);
  }
  // Idle connections stay open longer than the clients keep theirs (Node's 5 s default is shorter than a test's pause
  // between two requests of one client): a client that reuses a socket the server is closing gets ECONNRESET, which
  // a busy machine made happen (an export fetched by Playwright's request context after a page's wait).
  const child = spawn(
    path.join(ROOT, "node_modules", ".bin", "next"),
    ["start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal!)),
  );
  const keep = (d: Buffer) => {
    log = (log + d).slice(-20_000);
    file?.write(d);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return void file?.end();
    const exited = new Promise((r) => child.once("exit", r));
    const kill = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        // already gone
      }
    };
    kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) kill("SIGKILL");
    file?.end();
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${log}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The app did not become healthy within ${timeoutMs / 1000}s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    port,
    pid: child.pid!,
    stop,
    output: () => log,
    signal: (sig) => {
      try {
        process.kill(-child.pid!, sig); // the process group: `next` and any worker it started
      } catch {
        // already gone
      }
    },
    exited,
  };
}
