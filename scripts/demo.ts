// npm run demo: builds the app if needed, loads a demo fleet into an embedded database of its own
// (.data/demo, or STORAGE_DATA_DIR) and starts the dashboard on it.
//
//   --workspaces N   fleet size (default 150)      --days N    days of history (default 90)
//   --port N         port (default 3000, or PORT)  --seed-only load the fleet and exit
//   --fresh          throw away an existing demo database first
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openEmbedded } from "@/lib/db/open";
import { DEMO_ADMIN, ensureDemoAdmin } from "@/lib/demo/admin";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { consoleLines } from "./lib/console-lines";
import { buildIsStale } from "./lib/next-server";
import { rowsOf } from "@/lib/db/types";

const { values: args } = parseArgs({
  options: {
    workspaces: { type: "string", default: "150" },
    days: { type: "string", default: "90" },
    port: { type: "string", default: process.env.PORT ?? "3000" },
    "seed-only": { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
  },
});
const dataDir = path.resolve(process.env.STORAGE_DATA_DIR ?? path.join(process.cwd(), ".data", "demo"));
// The seeding's progress and the build's output share the console (they run side by side): one writer keeps
// each line whole.
const out = consoleLines(process.stdout);
const log = (msg: string) => out.line(`[demo] ${msg}`);

async function seed(): Promise<void> {
  if (args.fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  const database = await openEmbedded(dataDir);
  try {
    const existing = await database.db.execute(sql`select count(*)::int as n from workspaces`);
    const n = rowsOf<{ n: number }>(existing)[0].n;
    if (n > 0) {
      log(`${dataDir} already holds ${n} workspaces (use --fresh to start over)`);
    } else {
      const started = Date.now();
      log(`loading ${args.workspaces} workspaces with ${args.days} days of history into ${dataDir}`);
      const result = await seedDemoFleet(database.db, {
        workspaces: Number(args.workspaces),
        days: Number(args.days),
        onProgress: (done, total) => out.progress(`[demo] ${done}/${total} reports`, done, total),
      });
      out.endProgress();
      const s = (Date.now() - started) / 1000;
      log(`stored ${result.reports} reports in ${s.toFixed(1)} s (${(result.reports / s).toFixed(0)} reports/s)`);
    }
    if (await ensureDemoAdmin(database.db)) log(`created the demo admin ${DEMO_ADMIN.email}`);
  } finally {
    await database.close();
  }
}

// Building and seeding both take a while and use different cores: run them side by side.
const build =
  buildIsStale() && !args["seed-only"]
    ? new Promise<void>((resolve, reject) => {
        log("building the app (first run, or sources changed since the last build)");
        const child = spawn("npm", ["run", "build"], { stdio: ["ignore", "pipe", "pipe"] });
        void out.pipe(child.stdout, "[build] ");
        void out.pipe(child.stderr, "[build] ");
        // "close": after the last line of its output was read.
        child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`npm run build exited with ${code}`))));
      })
    : Promise.resolve();
await Promise.all([seed(), build]);
if (args["seed-only"]) process.exit(0);

// The enrollment key is a secret, as in production: the Connect page shows it to admins, no log line does.
log(`dashboard: http://localhost:${args.port} (the enrollment key is on its Connect page)`);
log(
  `sign in as ${DEMO_ADMIN.email} with the password ${DEMO_ADMIN.password} (demo data only; add users on the Users page)`,
);
const next = spawnSync("npx", ["next", "start", "-p", args.port], {
  stdio: "inherit",
  env: { ...process.env, STORAGE_DATA_DIR: dataDir },
});
process.exit(next.status ?? 1);
