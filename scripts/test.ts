// npm test: every suite (unit and database tests on both databases, reporter, browser), then one summary
// line "N passed, N failed" that CI reads. Arguments are passed on to vitest (e.g. --project unit).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const results = ".test-results.json";
const summaryFile = ".test-summary";
fs.rmSync(results, { force: true });

const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...process.argv.slice(2)],
  { stdio: "inherit" },
);

let passed = 0;
let failed = 0;
let skipped = 0;
// Suites that skip themselves where they cannot run (the reporter's, which need root) are named, not only counted.
const skippedSuites = new Set<string>();
try {
  const json = JSON.parse(fs.readFileSync(results, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults: {
      status: string;
      message?: string;
      name: string;
      assertionResults?: { status: string; title: string; ancestorTitles: string[] }[];
    }[];
  };
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  skipped = json.numPendingTests + json.numTodoTests;
  // A file that fails to load (or whose hooks fail) has no failed test of its own: count it as one.
  failed += json.testResults.filter((f) => f.status === "failed" && f.message).length;
  for (const f of json.testResults) {
    for (const a of f.assertionResults ?? []) {
      if (["skipped", "pending", "todo"].includes(a.status)) {
        skippedSuites.add(`${path.relative(process.cwd(), f.name)} > ${a.ancestorTitles.join(" > ") || a.title}`);
      }
    }
  }
} catch {
  failed = Math.max(failed, 1);
}
if (run.status !== 0 && failed === 0) failed = 1;

for (const s of skippedSuites) console.log(`skipped: ${s}`);
const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
fs.writeFileSync(summaryFile, `${line}\n`);
console.log(line);
process.exit(failed > 0 ? 1 : 0);
