// npm run bench: runs every benchmark in scripts/bench/ one after another (they must not share the CPU).
// `npm run bench -- ingest reporter` runs only those; what follows the first flag goes to each of them
// (`npm run bench -- scale --pages-only --days 14`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RESULTS_ENV, resultsTable } from "./lib/bench-results";

const dir = path.join(process.cwd(), "scripts", "bench");
const argv = process.argv.slice(2);
const firstFlag = argv.findIndex((a) => a.startsWith("-"));
const only = firstFlag < 0 ? argv : argv.slice(0, firstFlag);
const flags = firstFlag < 0 ? [] : argv.slice(firstFlag);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && (only.length === 0 || only.includes(path.basename(f, ".ts"))))
  .sort();
const results = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-")), "measures.jsonl");
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${path.basename(f, ".ts")} ===`);
  // react-server: database modules import "server-only", which is an empty module under that condition.
  const r = spawnSync("node", ["--conditions=react-server", "--import", "tsx", path.join(dir, f), ...flags], {
    stdio: "inherit",
    env: { ...process.env, [RESULTS_ENV]: results },
  });
  if (r.status !== 0) {
    failed++;
    console.log(`(${f} exited with ${r.status})`);
  }
}
console.log(`\n=== every measure against its goal ===\n${resultsTable(results)}`);
fs.rmSync(path.dirname(results), { recursive: true, force: true });
process.exit(failed ? 1 : 0);
