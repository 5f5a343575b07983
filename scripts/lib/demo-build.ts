// `npm run build` for `npm run demo`: its output goes to a log file (the demo shows one status line, and the
// log's tail if the build fails); the stages read from that output give the status and the time left.
import { spawn } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import type { Task } from "./status-line";

// Each stage's first line, and the seconds it took on a quiet 2-core machine (the first run, with the runtimes'
// download). The estimate scales the stages still to come by how long the finished ones took against these.
const STAGES: { starts: RegExp; stage: string; seconds: number }[] = [
  { starts: /^> \S+ build$/, stage: "starting", seconds: 3 },
  { starts: /^> \S+ build:reporter$/, stage: "bundling the reporter", seconds: 8 },
  { starts: /^> \S+ build:module$/, stage: "packing the module (Node.js runtimes)", seconds: 12 },
  { starts: /Next\.js \d/, stage: "next build: compiling", seconds: 75 },
  // The demo's build skips the type check (below): Next says so and goes on.
  {
    starts: /Compiled successfully|Running TypeScript|Skipping validation of types/,
    stage: "next build: finishing compiling",
    seconds: 2,
  },
  { starts: /Collecting page data/, stage: "next build: collecting pages", seconds: 8 },
  { starts: /Generating static pages/, stage: "next build: rendering pages", seconds: 6 },
  { starts: /Finalizing page optimization|Collecting build traces/, stage: "next build: finishing", seconds: 6 },
];

export type RunningBuild = { done: Promise<void>; status: () => Task };

export function runBuild(logFile: string, now: () => number = Date.now): RunningBuild {
  const log = fs.createWriteStream(logFile);
  let at = 0;
  let stageStarted = now();
  // Seconds the finished stages took, and what the table expected of them.
  let took = 0;
  let expected = 0;
  const onLine = (line: string) => {
    log.write(`${line}\n`);
    const next = STAGES.findIndex((s, i) => i > at && s.starts.test(line.trim()));
    if (next < 0) return;
    took += (now() - stageStarted) / 1000;
    expected += STAGES.slice(at, next).reduce((sum, s) => sum + s.seconds, 0);
    at = next;
    stageStarted = now();
  };
  // The demo builds the sources as they are, once: their types are checked by `npm run typecheck` (CI), not here.
  const child = spawn("npm", ["run", "build"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, STORAGE_BUILD_ONE_OFF: "1" },
  });
  readline.createInterface({ input: child.stdout }).on("line", onLine);
  readline.createInterface({ input: child.stderr }).on("line", onLine);
  const done = new Promise<void>((resolve, reject) =>
    // "close": after the last line of its output was read.
    child.on("close", (code) => {
      log.end();
      if (code === 0) return resolve();
      const tail = fs.readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-30).join("\n");
      reject(new Error(`npm run build exited with ${code} (its output: ${logFile}):\n${tail}`));
    }),
  );
  const status = (): Task => {
    // A machine slower than the table's (or busy) is so for every stage; one stage alone says little.
    const scale = expected >= 10 ? Math.min(4, Math.max(0.5, took / expected)) : 1;
    const inStage = (now() - stageStarted) / 1000;
    const current = STAGES[at].seconds * scale;
    const rest = STAGES.slice(at + 1).reduce((sum, s) => sum + s.seconds * scale, 0);
    // A stage that overruns its estimate still has a little left, never nothing.
    return { stage: STAGES[at].stage, secondsLeft: Math.max(current - inStage, current * 0.1) + rest };
  };
  return { done, status };
}
