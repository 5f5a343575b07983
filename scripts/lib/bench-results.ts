// The measures `npm run bench` sets against their goals: each benchmark records its ratios here as it prints
// them, and scripts/bench.ts prints them all as one table at the end of the run ("measure | value | goal | ok").
import fs from "node:fs";

export type Goal = { op: ">=" | "<="; target: number };
export type Measure = { measure: string; value: number; goal: Goal };

/** The file the benchmarks of one run append their measures to (set by scripts/bench.ts). */
export const RESULTS_ENV = "BENCH_RESULTS_FILE";

export const meets = ({ value, goal }: Measure): boolean =>
  goal.op === ">=" ? value >= goal.target : value <= goal.target;

/** Records a measure for the run's final table (nothing when the benchmark runs on its own) and returns its verdict. */
export function recordMeasure(measure: string, value: number, goal: Goal): string {
  const m: Measure = { measure, value, goal };
  const file = process.env[RESULTS_ENV];
  if (file) fs.appendFileSync(file, `${JSON.stringify(m)}\n`);
  return `${value.toFixed(2)} (goal ${goal.op} ${goal.target.toFixed(2)}: ${meets(m) ? "met" : "NOT met"})`;
}

/** The run's measures as a table, in the order recorded. */
export function resultsTable(file: string): string {
  const rows = fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Measure)
    : [];
  const lines = rows.map(
    (m) => `| ${m.measure} | ${m.value.toFixed(2)} | ${m.goal.op} ${m.goal.target} | ${meets(m) ? "yes" : "NO"} |`,
  );
  return ["| measure | value | goal | ok |", "|---|---|---|---|", ...lines].join("\n");
}
