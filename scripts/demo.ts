// npm run demo: builds the app if needed, loads a demo fleet into an embedded database of its own
// (.data/demo, or STORAGE_DATA_DIR) and starts the dashboard on it.
//
//   --workspaces N   fleet size (default 150)      --days N    days of history (default 90)
//   --port N         port (default 3000, or PORT)  --seed-only load the fleet and exit
//   --fresh          throw away an existing demo database first
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openEmbedded } from "@/lib/db/open";
import { DEMO_ADMIN, ensureDemoAdmin } from "@/lib/demo/admin";
import { seedDemoFleet } from "@/lib/demo/fleet";
import { rowsOf } from "@/lib/db/types";
import { runBuild } from "./lib/demo-build";
import { buildIsStale } from "./lib/next-server";
import { formatSeconds, statusLine, type Task } from "./lib/status-line";

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
const buildLog = path.join(process.cwd(), ".data", "demo-build.log");
const status = statusLine(process.stdout, { prefix: "[demo] " });
const log = (msg: string) => status.line(`[demo] ${msg}`);
const count = new Intl.NumberFormat("en");
// Opening a new embedded database (initdb and the migrations) on a quiet 2-core machine; loading, before its rate
// is known.
const OPEN_SECONDS = 10;
const GUESSED_REPORTS_PER_SECOND = 150;

const demoStarted = Date.now();
let fleet = (): Task => ({
  stage: "opening the database",
  secondsLeft: Math.max(1, OPEN_SECONDS - (Date.now() - demoStarted) / 1000),
});

async function seed(): Promise<void> {
  if (args.fresh) fs.rmSync(dataDir, { recursive: true, force: true });
  const opened = Date.now();
  const database = await openEmbedded(dataDir);
  try {
    const existing = await database.db.execute(sql`select count(*)::int as n from workspaces`);
    const n = rowsOf<{ n: number }>(existing)[0].n;
    if (n > 0) {
      log(`${dataDir} already holds ${n} workspaces (use --fresh to start over)`);
    } else {
      const started = Date.now();
      let [done, total] = [0, Number(args.workspaces) * Number(args.days)];
      fleet = () => {
        const perSecond = done > total / 50 ? done / ((Date.now() - started) / 1000) : GUESSED_REPORTS_PER_SECOND;
        const detail = `${count.format(done)}/${count.format(total)}`;
        return { stage: "loading reports", detail, secondsLeft: (total - done) / perSecond };
      };
      const result = await seedDemoFleet(database.db, {
        workspaces: Number(args.workspaces),
        days: Number(args.days),
        onProgress: (d, t) => void ([done, total] = [d, t]),
      });
      const s = (Date.now() - started) / 1000;
      log(
        `loaded ${args.workspaces} workspaces, ${count.format(result.reports)} reports of ${args.days} days, ` +
          `in ${formatSeconds(s)} (${(result.reports / s).toFixed(0)} reports/s; opening the database took ` +
          `${formatSeconds((started - opened) / 1000)}) into ${dataDir}`,
      );
    }
    if (await ensureDemoAdmin(database.db)) log(`created the demo admin ${DEMO_ADMIN.email}`);
  } finally {
    await database.close();
  }
}

// Building and loading both take a while and use different cores: they run side by side, on one status line.
const build =
  buildIsStale() && !args["seed-only"]
    ? (fs.mkdirSync(path.dirname(buildLog), { recursive: true }), runBuild(buildLog))
    : null;
if (build) log(`building the app (first run, or sources changed since the last build); its output: ${buildLog}`);
const tasks: [string, () => Task][] = [["fleet", () => fleet()]];
if (build) tasks.push(["build", build.status]);
const started = Date.now();
const tick = () => tasks.forEach(([name, task]) => status.update(name, task()));
tick();
const ticker = setInterval(tick, 1000);
const finish = (name: string) => () => {
  tasks.splice(
    tasks.findIndex(([n]) => n === name),
    1,
  );
  status.done(name);
  if (name === "build") log(`built the app in ${formatSeconds((Date.now() - started) / 1000)}`);
};
try {
  await Promise.all([seed().then(finish("fleet")), build?.done.then(finish("build"))]);
} finally {
  clearInterval(ticker);
  status.end();
}
if (args["seed-only"]) process.exit(0);

// The enrollment key is a secret, as in production: the Connect page shows it to admins, no log line does.
log(`dashboard: http://localhost:${args.port} (the enrollment key is on its Connect page)`);
log(
  `sign in as ${DEMO_ADMIN.email} with the password ${DEMO_ADMIN.password} (demo data only; add users on the Users page)`,
);
const next = spawnSync("npx", ["next", "start", "-p", args.port], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", STORAGE_DATA_DIR: dataDir },
});
process.exit(next.status ?? 1);
