// npm test: every suite (unit and database tests on both databases, reporter, browser), then one summary
// line "N passed, N failed" that CI reads. Arguments are passed on to vitest (e.g. --project unit).
//
// Without arguments the projects run side by side, as three vitest processes, each line prefixed with its
// project's name. Most of the time of each is spent waiting (on PostgreSQL, a server starting, a child process,
// Chromium, the cleanup scheduler's minute), so the two cores were half idle with one file at a time:
// - unit: two files at a time (Vitest's default on 2 cores is one). Every file has databases of its own.
// - browser: one file at a time, against the dashboard they share, copied from a demo fleet seeded here while
//   the unit files start. A second browser process beside it made the unit files wait on the two cores more than
//   it saved: CI took longer.
// - browser-scheduler: the files that wait for the scheduler's real minutes, beside the other browser files.
// On a fresh 2-core machine (the whole of CI, 2026-11-29 evening: 14 minutes): unit 12.2 minutes, browser 12.2,
// side by side; the pages walk visits three pages at a time (the browser project's maxConcurrency).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { SEEDED_FLEET_ENV, seedDemo } from "../tests/browser/server";
import { ensureBuild } from "./lib/next-server";
import { testEnvironment } from "./setup/file";

type Outcome = { passed: number; failed: number; skipped: number; skippedSuites: string[] };

type JsonReport = {
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

/** Runs vitest with `args`, its output prefixed with `label` when there is one; its counts from its JSON report. */
function runVitest(args: string[], results: string, label: string | null): Promise<Outcome> {
  fs.rmSync(results, { force: true });
  const child = spawn(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...args],
    { stdio: label ? ["ignore", "pipe", "pipe"] : "inherit" },
  );
  if (label) {
    for (const stream of [child.stdout!, child.stderr!]) {
      const out = stream === child.stdout ? process.stdout : process.stderr;
      readline.createInterface({ input: stream }).on("line", (line) => out.write(`[${label}] ${line}\n`));
    }
  }
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const outcome = countsOf(results);
      if (code !== 0 && outcome.failed === 0) outcome.failed = 1;
      resolve(outcome);
    });
  });
}

function countsOf(results: string): Outcome {
  try {
    const json = JSON.parse(fs.readFileSync(results, "utf8")) as JsonReport;
    // A file that fails to load (or whose hooks fail) has no failed test of its own: count it as one.
    const failedFiles = json.testResults.filter((f) => f.status === "failed" && f.message).length;
    // Suites that skip themselves where they cannot run (the reporter's, which need root) are named, not only counted.
    const skippedSuites = json.testResults.flatMap((f) =>
      (f.assertionResults ?? [])
        .filter((a) => ["skipped", "pending", "todo"].includes(a.status))
        .map((a) => `${path.relative(process.cwd(), f.name)} > ${a.ancestorTitles.join(" > ") || a.title}`),
    );
    return {
      passed: json.numPassedTests,
      failed: json.numFailedTests + failedFiles,
      skipped: json.numPendingTests + json.numTodoTests,
      skippedSuites,
    };
  } catch {
    return { passed: 0, failed: 1, skipped: 0, skippedSuites: [] };
  }
}

// The database server `npm run setup` found or started, for every suite (the vitest processes inherit it).
Object.assign(process.env, testEnvironment(process.env));
const args = process.argv.slice(2);
let outcomes: Outcome[];
if (args.length > 0) {
  outcomes = [await runVitest(args, ".test-results.json", null)];
} else {
  // The browser projects' servers run the built app: build once, before any starts (a stale build would otherwise
  // be built twice at once).
  ensureBuild();
  const unit = runVitest(["--project", "unit", "--maxWorkers", "2"], ".test-results-unit.json", "unit");
  // The demo fleet for the browser files' shared dashboard, seeded while the unit files start.
  const seeds = fs.mkdtempSync(path.join(os.tmpdir(), "storage-browser-seed-"));
  const seeded = path.join(seeds, "pglite");
  const browsers = seedDemo(seeded, 60, 30).then(
    () => {
      process.env[SEEDED_FLEET_ENV] = seeded;
      return Promise.all(
        ["browser", "browser-scheduler"].map((project) =>
          runVitest(["--project", project], `.test-results-${project}.json`, project),
        ),
      );
    },
    (err: Error): Outcome[] => {
      console.error(`[browser] ${err.message}`);
      return [{ passed: 0, failed: 1, skipped: 0, skippedSuites: [] }];
    },
  );
  outcomes = [await unit, ...(await browsers)];
  fs.rmSync(seeds, { recursive: true, force: true });
}

const sum = (k: "passed" | "failed" | "skipped") => outcomes.reduce((s, o) => s + o[k], 0);
for (const s of new Set(outcomes.flatMap((o) => o.skippedSuites))) console.log(`skipped: ${s}`);
const skipped = sum("skipped");
const line = `${sum("passed")} passed, ${sum("failed")} failed${skipped ? `, ${skipped} skipped` : ""}`;
fs.writeFileSync(".test-summary", `${line}\n`);
console.log(line);
process.exit(sum("failed") > 0 ? 1 : 0);
