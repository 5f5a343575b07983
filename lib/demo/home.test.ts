// The demo's disks are explained to the byte: in every report, the home's lines and what lies outside it add up
// to df's Used, the roots' split is the roots', and the report is one the ingest accepts.
import { expect, it } from "vitest";
import { parseReport } from "@/lib/ingest/parse-report";
import { homeSplit } from "@/lib/shaping/home-breakdown";
import { simulateDemoFleet } from "./fleet";
import { metadataBytes } from "./home";

it("explains every demo disk to the byte, full ones included", () => {
  const fleet = simulateDemoFleet({ workspaces: 60, days: 20, now: new Date("2026-03-01T12:00:00Z") });
  const problems: string[] = [];
  let full = 0;
  let nested = 0;
  const kinds = new Set<string>();
  for (const report of fleet.reports()) {
    const at = `${report.workspace.name} on ${report.collectedAt.slice(0, 10)}`;
    const { home, volume } = parseReport(report);
    if (!home || !volume?.usedBytes) {
      problems.push(`${at}: no home`);
      continue;
    }
    // package caches are roots of their own and the rest's in the split
    const roots = report.roots.filter((r) => r.kind !== "package-cache").reduce((s, r) => s + r.bytes, 0);
    if (home.roots.agents + home.roots.modules + home.roots.other !== roots) problems.push(`${at}: roots split`);
    const split = homeSplit(
      {
        sizeBytes: volume.totalBytes,
        usedBytes: volume.usedBytes,
        availBytes: volume.freeBytes,
        usePercent: 0,
        inodes: null,
        full: false,
        inodesFull: false,
      },
      home,
    );
    if (split.lines.reduce((s, l) => s + l.bytes, 0) !== volume.usedBytes) problems.push(`${at}: lines miss Used`);
    const outside = split.lines.find((l) => l.key === "outside")?.bytes;
    if (outside !== metadataBytes(volume.totalBytes)) problems.push(`${at}: outside ${outside}`);
    if (volume.freeBytes === 0) full++;
    if (home.nestedCopies) nested++;
    for (const k of Object.keys(home.kinds)) kinds.add(k);
  }
  expect(problems.slice(0, 5)).toEqual([]);
  expect(full).toBeGreaterThan(0);
  expect(nested).toBeGreaterThan(0);
  expect([...kinds].sort()).toEqual(["containers", "ide-server", "package-cache", "project-deps"]);
});
