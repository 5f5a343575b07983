// npm run house: the house's ground rules, counted. Import cycles (type-only imports counted) and imports against
// the chain of layers (scripts/house/chain.ts) fail it; the rest are figures to bring down: functions over 80
// lines, files over 300 lines, duplicate blocks, rowsOf call sites, test-only files under lib/. Each rule is
// pinned in scripts/house/ so that two people get the same numbers. `npm run house -- --list` names every item.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { againstChain } from "./house/chain";
import { importCycles, importEdges } from "./house/imports";
import { duplicateBlocks, longFiles, longFunctions, rowsOfCalls, testOnlyFiles } from "./house/measures";

const root = path.resolve(import.meta.dirname, "..");
const list = process.argv.includes("--list");

/** The repository's source files: tracked or new, not ignored (git decides, as a clone would hold them). */
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(file) && !file.endsWith(".d.ts"));

function show(label: string, items: string[], always = false): void {
  console.log(`${label}: ${items.length}`);
  if (always || list) for (const item of items) console.log(`  ${item}`);
}

const edges = importEdges(root, files);
const cycles = importCycles(edges).map((cycle) => cycle.join(" ⇄ "));
const against = edges.flatMap((edge) => {
  const why = againstChain(edge.from, edge.to);
  return why ? [`${edge.from} → ${edge.to}${edge.typeOnly ? " (type)" : ""}: ${why}`] : [];
});

show("import cycles (type-only imports counted)", cycles, true);
show("imports against the chain (type-only imports counted)", against, true);
show("functions over 80 lines", await longFunctions(root, files));
show("files over 300 lines", longFiles(root, files));
const duplicates = duplicateBlocks(root, files);
const byFolder = [...duplicates.byFolder].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(`duplicate blocks of 6+ lines: ${duplicates.total}`);
console.log(`  by folder: ${byFolder.map(([folder, count]) => `${folder} ${count}`).join(", ") || "none"}`);
show("rowsOf call sites", rowsOfCalls(root, files));
show("test-only files under lib/", testOnlyFiles(files, edges), true);

if (cycles.length > 0 || against.length > 0) {
  console.error("house: import cycles and imports against the chain must be 0 (docs/architecture.md#layering)");
  process.exit(1);
}
