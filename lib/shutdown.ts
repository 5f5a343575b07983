// Graceful shutdown on SIGTERM (a rolling restart, `docker stop`, Kubernetes). Next's own server (`next start`
// and the standalone server.js both run next/dist/server/lib/start-server) already answers SIGTERM the right
// way: it stops listening (new connections are refused), waits for the requests in flight to finish, closes
// and exits 143. What it lacks is a bound: one request that never finishes would keep a stopping instance
// forever. This adds it: past STORAGE_SHUTDOWN_TIMEOUT seconds (default 25, inside Kubernetes' default grace
// period of 30) the process exits anyway. A report is acknowledged only once committed, so a request cut off by
// the bound was never acknowledged and its reporter sends it again.

import { config } from "@/lib/config";

let installed = false;

/**
 * Bounds the shutdown that Next's SIGTERM/SIGINT handler runs. A scheduled task caught by the exit is one
 * transaction that never committed: the next instance's tick does it.
 */
export function installShutdownBound() {
  if (installed) return;
  installed = true;
  const stop = (signal: NodeJS.Signals) => {
    const ms = config().shutdownTimeoutMs;
    console.log(`[app] ${signal}: finishing the requests in flight (at most ${ms / 1000} s)`);
    setTimeout(() => {
      console.error(`[app] requests still in flight after ${ms / 1000} s: exiting anyway`);
      process.exit(1);
    }, ms).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
