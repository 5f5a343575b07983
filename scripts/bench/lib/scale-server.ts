// scale.ts's --server: the Next server's memory while it serves the scale fleet's pages. The built app is started
// as `npm run bench -- load` starts it (`next start` on the fleet's database, the cleanup scheduler off), then
// each page's API, /metrics and the workspaces CSV are requested one after the other, each read to its end, while
// the resident memory of the server's process tree (its process group) is sampled. Each process's own peak
// (VmHWM, kept by the kernel) is read at the end too: their sum bounds the tree's peak from above whatever the
// sampling missed.
import fs from "node:fs";
import { openPostgres } from "@/lib/db/open";
import { createApiToken } from "@/lib/services/api-tokens";
import { createUser } from "@/lib/services/users";
import type { Who } from "@/lib/db/queries/audit";
import { ensureBuild, startNext } from "../../lib/next-server";

const WHO: Who = { actor: { type: "system", label: "scale bench" } };
const SAMPLE_MS = 50;

/** What is requested, in order: [label, path, POST body]. */
const REQUESTS: [string, string, unknown?][] = [
  ["fleet overview (90d)", "/api/v1/fleet/overview?range=90d"],
  ...["total", "name", "change7d", "daysUntilFull"].map((sort): [string, string] => [
    `workspaces page 1 by ${sort}`,
    `/api/v1/workspaces?sort=${sort}`,
  ]),
  ["workspaces, with an agent", "/api/v1/workspaces?agent=codex"],
  ["volumes at risk (first page)", "/api/v1/volumes/at-risk"],
  ["restart risk", "/api/v1/fleet/restart"],
  ["workspace detail 90d", "/api/v1/workspaces/ws-000420?range=90d"],
  ["agent claude-code (90d)", "/api/v1/agents/claude-code?range=90d"],
  ["findings (first page)", "/api/v1/findings"],
  [
    "cleanup preview, whole fleet",
    "/api/v1/cleanup/preview",
    { recipe: "claude-code-sessions", params: { olderThanDays: 30 }, scope: { all: true }, minAgeHours: 24 },
  ],
  ["/metrics", "/metrics"],
  ["workspaces CSV", "/api/v1/export/workspaces.csv"],
];

/** The processes of process group `pgid` (the server started detached leads its own group). */
function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its closing parenthesis are fixed.
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), 0 when the process is gone. */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** Starts the server on `url`, requests every page and prints the memory of each; the peak of the whole run. */
export async function serverMemory(url: string, log: (s: string) => void): Promise<number> {
  ensureBuild();
  const database = await openPostgres(url, 2);
  const app = await startNext({ DATABASE_URL: url, STORAGE_CLEANUP_SCHEDULER: "off" }, { timeoutMs: 600_000 });
  let pids = groupPids(app.pid);
  // The whole run's peak, and the peak since the current request started.
  let [peak, requestPeak, current] = [0, 0, 0];
  const sample = () => {
    current = pids.reduce((s, pid) => s + statusBytes(pid, "VmRSS"), 0);
    peak = Math.max(peak, current);
    requestPeak = Math.max(requestPeak, current);
  };
  const sampler = setInterval(sample, SAMPLE_MS);
  const regroup = setInterval(() => (pids = groupPids(app.pid)), 1000);
  try {
    const stamp = Date.now();
    const email = `scale-bench-${stamp}@example.com`;
    const admin = await createUser(database.db, { email, password: `pw-${stamp}-0123456789`, role: "admin" }, WHO);
    const { token } = await createApiToken(database.db, admin.id, { name: `scale-${stamp}`, role: "admin" }, WHO);
    sample();
    log(`\nthe Next server (next start, ${pids.length} processes) on the full fleet: ${mib(current)} after its start`);
    for (const [label, path, body] of REQUESTS) {
      requestPeak = current;
      const t = performance.now();
      const res = await fetch(`${app.url}${path}`, {
        method: body ? "POST" : "GET",
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      let bytes = 0;
      const reader = res.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
      sample();
      const ms = performance.now() - t;
      log(
        `  ${label.padEnd(34)} ${res.status} ${(bytes / 1024).toFixed(0).padStart(8)} KiB in ${ms.toFixed(0).padStart(6)} ms; peak ${mib(requestPeak)}`,
      );
    }
    const hwm = pids.reduce((s, pid) => s + statusBytes(pid, "VmHWM"), 0);
    log(
      `peak RSS of the server's processes: ${mib(peak)} sampled every ${SAMPLE_MS} ms; ${mib(hwm)} as the sum of each process's own peak (VmHWM)`,
    );
    return Math.max(peak, hwm);
  } finally {
    clearInterval(sampler);
    clearInterval(regroup);
    await app.stop();
    await database.close();
  }
}
