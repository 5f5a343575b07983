// Starts the dashboard for browser tests and scripts: builds when the build is missing or older than the
// sources, seeds a fresh embedded database with the demo fleet, and runs `next start` on a free port.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, startNext } from "../../scripts/lib/next-server";

export type Dashboard = { url: string; dataDir: string; log: () => string; stop: () => Promise<void> };

/** Names a demo fleet seeded before the browser projects start, for their dashboards to copy. */
export const SEEDED_FLEET_ENV = "STORAGE_TEST_SEEDED_FLEET";

/** Seeds the demo fleet into a fresh embedded database in `dataDir` (a child process: it takes about a minute). */
export function seedDemo(dataDir: string, workspaces: number, days: number): Promise<void> {
  const child = spawn(
    "node",
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      "scripts/demo.ts",
      "--seed-only",
      "--workspaces",
      String(workspaces),
      "--days",
      String(days),
    ],
    { env: { ...process.env, STORAGE_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (d: Buffer) => (output += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`seeding the demo fleet failed (exit ${code}):\n${output}`)),
    );
  });
}

/**
 * Builds if needed, seeds a fresh database (with the demo admin), starts `next start` with `env` added;
 * stop() kills it and removes the data. `seeded`: a database folder seeded before (by seedDemo), copied instead
 * of seeding again (the demo fleet of 60 workspaces takes about a minute to seed, a copy a second).
 */
export async function startDashboard(
  opts: {
    workspaces?: number;
    days?: number;
    seeded?: string;
    env?: Record<string, string>;
    logName?: string;
    port?: number;
  } = {},
): Promise<Dashboard> {
  ensureBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-browser-"));
  const pgliteDir = path.join(dataDir, "pglite");
  if (opts.seeded) fs.cpSync(opts.seeded, pgliteDir, { recursive: true });
  else await seedDemo(pgliteDir, opts.workspaces ?? 60, opts.days ?? 30);
  // The server's log is kept in .test-data/ (git-ignored) to diagnose a failed run.
  const logFile = path.join(".test-data", opts.logName ?? "browser-next.log");
  const app = await startNext({ STORAGE_DATA_DIR: pgliteDir, ...opts.env }, { logFile, port: opts.port });
  return {
    url: app.url,
    dataDir: pgliteDir,
    // The whole log (the file), not only the tail the runner keeps in memory.
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : app.output()),
    async stop() {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${pgliteDir}.lock`, { recursive: true, force: true });
    },
  };
}
