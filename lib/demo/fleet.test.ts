// The demo fleet shows nothing a real workspace cannot: over the fleet `npm run demo` loads (every workspace,
// every report), the roots fit in the volume's Used, Used fits in the volume, and a drop of the roots shows in
// Used the same day (issue 18: 22 GiB of roots on a 20 GiB volume, then a 7.4 GiB drop with Used flat).
import { expect, it } from "vitest";
import { sessionRulesFor } from "@/lib/catalog/agents";
import { matchGlob } from "@/lib/catalog/globs";
import { parseReport } from "@/lib/ingest/parse-report";
import { agentRetention, type Report } from "@/lib/report-format/schema";
import { simulateDemoFleet } from "./fleet";

it("keeps the roots within Used, Used within the volume, and moves Used with the roots", () => {
  const fleet = simulateDemoFleet({ workspaces: 150, days: 90, now: new Date("2026-03-01T12:00:00Z") });
  const previous = new Map<string, { roots: number; used: number }>();
  const latest = new Map<string, { free: number; inodesFree: number; inodes: number }>();
  const problems: string[] = [];
  let reports = 0;
  let drops = 0;
  for (const report of fleet.reports()) {
    reports++;
    const { workspace } = report;
    const at = `${workspace.owner}/${workspace.name} on ${report.collectedAt.slice(0, 10)}`;
    const { totalBytes: size, usedBytes: used, freeBytes: avail, inodes } = report.volume ?? {};
    if (size === undefined || used === undefined || avail === undefined || !inodes) throw new Error(`${at}: no volume`);
    const roots = report.roots.reduce((s, r) => s + r.bytes, 0);
    if (roots > used) problems.push(`${at}: roots ${roots} over Used ${used}`);
    if (avail < 0 || used + avail > size) problems.push(`${at}: Used ${used} + Avail ${avail} outside Size ${size}`);
    if (inodes.free < 0 || inodes.used > inodes.total) problems.push(`${at}: ${inodes.used} of ${inodes.total} inodes`);
    const before = previous.get(workspace.id);
    if (before && roots < before.roots) {
      drops++;
      if (used - before.used !== roots - before.roots)
        problems.push(`${at}: roots changed by ${roots - before.roots}, Used by ${used - before.used}`);
    }
    previous.set(workspace.id, { roots, used });
    latest.set(workspace.id, { free: avail, inodesFree: inodes.free, inodes: inodes.total });
  }
  expect(problems.slice(0, 10)).toEqual([]);
  expect(reports).toBe(fleet.total);
  // The rules were exercised: roots do drop (cleanups), and the fleet still shows full disks and inodes.
  expect(drops).toBeGreaterThan(20);
  expect([...latest.values()].filter((v) => v.free === 0).length).toBeGreaterThanOrEqual(6);
  expect([...latest.values()].filter((v) => v.inodesFree < 0.05 * v.inodes).length).toBeGreaterThan(0);
});

it("lists the sessions of every agent whose sessions the catalog knows, where the reporter would find them", () => {
  const fleet = simulateDemoFleet({ workspaces: 60, days: 30, now: new Date("2026-03-01T12:00:00Z") });
  const agentsWithSessions = new Set<string>();
  const problems: string[] = [];
  for (const report of fleet.reports())
    for (const root of report.roots) {
      const rules = sessionRulesFor(root.kind, root.agent);
      for (const e of root.largest ?? []) {
        const matches = rules.some((r) => matchGlob(r.glob, e.path));
        if ((e.type === "session") !== matches) problems.push(`${root.key} ${e.path} (${e.type})`);
        if (e.type === "session") agentsWithSessions.add(root.agent);
      }
    }
  expect(problems.slice(0, 5)).toEqual([]);
  // Every agent of the demo that the catalog gives sessions: not Claude Code's alone.
  expect([...agentsWithSessions].sort()).toEqual(["claude-code", "codex", "copilot", "cursor", "gemini"]);
});

it("carries the agents' own retention settings in every report, each case somewhere in the fleet", () => {
  const fleet = simulateDemoFleet({ workspaces: 150, days: 2, now: new Date("2026-03-01T12:00:00Z") });
  const seen = new Set<string>();
  for (const report of fleet.reports()) {
    const r = agentRetention.parse(report.agentRetention);
    for (const [agent, s] of Object.entries(r))
      seen.add(`${agent} ${s.state}${s.source?.startsWith("/") ? " managed" : ""}`);
  }
  expect([...seen].sort()).toEqual([
    "claude-code absent",
    "claude-code set",
    "claude-code set managed",
    "claude-code unreadable",
    "codex absent",
    "codex set",
    "gemini absent",
    "gemini set",
    "opencode absent",
    "opencode set",
  ]);
});

it("has a template whose workspaces lose their home and one whose Codex folder sits on a RAM disk", () => {
  const fleet = simulateDemoFleet({ workspaces: 60, days: 3, now: new Date("2026-03-01T12:00:00Z") });
  const last = new Map<string, Report>();
  for (const report of fleet.reports()) last.set(report.workspace.id, parseReport(report));
  const byTemplate = (t: string) => [...last.values()].filter((r) => r.workspace.template === t);
  const ephemeral = byTemplate("docker-ephemeral");
  expect(ephemeral.length).toBeGreaterThanOrEqual(3);
  for (const r of ephemeral)
    expect(r.persistence?.home).toMatchObject({ verdict: "not-persistent", mount: { fsType: "overlay" } });
  const ram = byTemplate("codex-ramdisk");
  expect(ram.length).toBeGreaterThanOrEqual(2);
  for (const r of ram) {
    expect(r.persistence?.home.verdict).toBe("persistent");
    expect(r.persistence?.roots["codex:data"]).toMatchObject({ verdict: "not-persistent", link: { path: ".codex" } });
  }
  // The rest of the fleet keeps its homes.
  const rest = [...last.values()].filter((r) => !["docker-ephemeral", "codex-ramdisk"].includes(r.workspace.template!));
  expect(rest.every((r) => r.persistence?.home.verdict === "persistent")).toBe(true);
});
