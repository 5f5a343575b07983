// The chain every import follows, lowest rung first: a file may import files of its own unit and of the units on
// lower rungs, never of a unit on its own rung or above. A unit is a folder (or one file) named by the longest
// prefix below that matches a path. docs/architecture.md explains each rung; keep the two in step.

/** The unit of the tests, the scripts and the root's configuration files. */
export const TOOLS = "tests and scripts";

/** One rung: its units, each a folder (ending in "/") or a file, relative to the repository's root. */
export const CHAIN: readonly (readonly string[])[] = [
  ["lib/errors.ts", "lib/config/", "lib/secrets/", "lib/streams/"],
  ["lib/report-format/"],
  ["lib/catalog/"],
  ["lib/format/"],
  ["lib/findings/", "lib/cleanup/", "lib/audit/", "lib/coder/", "lib/csv/", "lib/notify/"],
  // The reporter sits apart: see REPORTER_MAY_IMPORT.
  ["lib/reporter/"],
  ["lib/validations/"],
  ["lib/series.ts", "lib/shutdown.ts", "lib/terraform/", "lib/http/"],
  ["lib/shaping/"],
  ["lib/db/"],
  ["lib/backup/"],
  ["lib/metrics/"],
  ["lib/enrollment/"],
  ["lib/auth/"],
  ["lib/services/"],
  // A report's way in calls the services after its commit (the owners' notices after the kept refresh).
  ["lib/ingest/"],
  ["lib/export/", "lib/openapi/", "lib/query/", "lib/demo/"],
  ["components/"],
  ["app/", "instrumentation.ts", "proxy.ts"],
  // Tests and scripts assemble the layers: the tests use the scripts' server helpers, the benchmarks the tests'.
  [TOOLS],
];

/** The reporter runs alone inside workspaces: of the dashboard's code it may import only these units and files. */
export const REPORTER_MAY_IMPORT: readonly string[] = ["lib/report-format/", "lib/catalog/", "lib/cleanup/protocol.ts"];

const isTool = (file: string) =>
  /\.test\.tsx?$/.test(file) || file.startsWith("tests/") || file.startsWith("scripts/") || !file.includes("/");

/** The unit of `file`: the longest unit of the chain that holds it, or the tools' unit; null when none does. */
export function unitOf(file: string): string | null {
  if (isTool(file) && !["instrumentation.ts", "proxy.ts"].includes(file)) return TOOLS;
  let best: string | null = null;
  for (const unit of CHAIN.flat())
    if ((unit === file || (unit.endsWith("/") && file.startsWith(unit))) && unit.length > (best?.length ?? 0))
      best = unit;
  return best;
}

const rungOf = new Map(CHAIN.flatMap((units, rung) => units.map((unit) => [unit, rung] as const)));

/** Why the import `from` → `to` goes against the chain, or null when it follows it. */
export function againstChain(from: string, to: string): string | null {
  const source = unitOf(from);
  const target = unitOf(to);
  if (!source) return `${from} is in no unit of the chain`;
  if (!target) return `${to} is in no unit of the chain`;
  if (source === target) return null;
  if (source === "lib/reporter/" && !REPORTER_MAY_IMPORT.some((allowed) => to === allowed || to.startsWith(allowed)))
    return `the reporter may import only ${REPORTER_MAY_IMPORT.join(", ")}`;
  const [fromRung, toRung] = [rungOf.get(source)!, rungOf.get(target)!];
  if (toRung < fromRung) return null;
  return toRung === fromRung ? `${source} and ${target} share a rung` : `${target} is above ${source}`;
}
