// Load: a fleet of simulated workspaces (each enrolled with its own token, each the reporter's own delivery code
// with its spool) reporting concurrently into the built app on PostgreSQL (a scratch database on
// TEST_DATABASE_URL's server), while cleanup runs are started and their jobs claimed and completed. Afterwards
// the database must hold exactly the reports that were acknowledged, none twice. Loopback only; bounded by
// --workspaces and --seconds.
//   npm run bench -- load            (1,000 workspaces, 60 s)
//   node --conditions=react-server --import tsx scripts/bench/load.ts --workspaces 100 --seconds 15
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openPostgres } from "@/lib/db/open";
import { createScratchPostgres } from "@/tests/support/db";
import { checkExactlyOnce, cleanupJobCreator, jobStates, printLoad, runLoad } from "../lib/load";
import { ensureBuild, startNext } from "../lib/next-server";

const { values: args } = parseArgs({
  options: {
    workspaces: { type: "string", default: "1000" },
    seconds: { type: "string", default: "60" },
    "think-ms": { type: "string", default: "10000" },
  },
});
const WORKSPACES = Math.min(10_000, Number(args.workspaces));
const SECONDS = Math.min(600, Number(args.seconds));
const KEY = "sek_load_bench_key_of_24_chars";

ensureBuild();
const scratch = await createScratchPostgres({ migrated: true });
const stateRoot = fs.mkdtempSync(path.join(os.tmpdir(), "load-bench-"));
const app = await startNext({
  DATABASE_URL: scratch.url,
  STORAGE_ENROLLMENT_KEY: KEY,
  STORAGE_CLEANUP_SCHEDULER: "off",
});
const database = await openPostgres(scratch.url, 2);
let exact = false;
try {
  const result = await runLoad({
    url: app.url,
    enrollmentKey: KEY,
    workspaces: WORKSPACES,
    prefix: "load",
    durationMs: SECONDS * 1000,
    thinkMs: Number(args["think-ms"]),
    stateRoot,
    createJobs: cleanupJobCreator(database.db),
    drainMs: 300_000,
  });
  const check = await checkExactlyOnce(database.db, "load", result.acknowledged);
  printLoad("load", WORKSPACES, result, check);
  console.log(`  cleanup jobs by state ${JSON.stringify(await jobStates(database.db, "load"))}`);
  exact = check.missing === 0 && check.unacknowledged === 0 && check.doubled === 0 && result.leftInSpools === 0;
  console.log(exact ? "  exactly the acknowledged reports are stored, none twice" : "  NOT EXACT");
} finally {
  await database.close();
  await app.stop();
  await scratch.drop();
  fs.rmSync(stateRoot, { recursive: true, force: true });
}
process.exit(exact ? 0 : 1);
