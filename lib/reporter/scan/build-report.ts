// One report: find the roots, scan them, and put the figures together with the workspace and its volume.

import crypto from "node:crypto";
import fs from "node:fs";
import { LIMITS, REPORT_FORMAT_VERSION } from "@/lib/report-format/constants";
import type { AgentRetention, Report, Volume, WorkspaceIdentity } from "@/lib/report-format/schema";
import { withWirePath } from "@/lib/report-format/path-encoding";
import { volumeFromStatfs } from "@/lib/report-format/volume";
import { readProtect } from "../cleanup/protect";
import type { Env } from "../env";
import { REPORTER_VERSION } from "../version";
import { readAgentRetention } from "./agent-retention";
import { deletedButOpen, homeDevice, homeUnseen, reportedOpen, type HomeUnseen } from "./home-unseen";
import { homeUsage, wholeHomeSpec } from "./home-usage";
import { reportPersistence } from "./persistence";
import { discoverRoots, type ReporterConfig } from "./roots";
import { scanRoots, type ScannerChoice } from "./scan-roots";

/** What a report is about: the home folder (its real path), the workspace, the configuration file's extra roots. */
export type ReportScope = { home: string; identity: WorkspaceIdentity; config: ReporterConfig | null };

export async function buildReport(
  cfg: ReportScope,
  env: Env,
  scanner: ScannerChoice,
  now: Date,
  verbose: (s: string) => void,
): Promise<Report> {
  const started = performance.now();
  const notes: string[] = [];
  const specs = discoverRoots({ home: cfg.home, env, config: cfg.config, notes });
  for (const n of notes) verbose(n);
  const nowSec = Math.floor(now.getTime() / 1000);
  // The native scanner reads the files deleted but held open, in C after its walk (-o): /proc read in cold
  // JavaScript took 9-10 ms of a small home's 80 ms run. The main thread reads them where it does not run.
  const dev = homeDevice(cfg.home);
  const scannerReadsOpen =
    dev !== null && scanner.native !== null && scanner.mode !== "find" && scanner.mode !== "node";
  // The whole home last, so that every root is left out of it: the same walk measures both. The scanner
  // processes are running when scanRoots returns its promise; the main thread would only wait for them, so it
  // reads meanwhile (a microtask, before any of their output) what does not depend on their figures: on a
  // small home that reading (/proc's open files above all) was a third of the run after the walk.
  const [scan, facts] = await Promise.all([
    scanRoots([...specs, wholeHomeSpec(cfg.home)], nowSec, {
      ...scanner,
      home: cfg.home,
      protect: readProtect(cfg.home),
      deletedOpenOn: scannerReadsOpen ? dev : undefined,
    }),
    Promise.resolve().then(() => readHomeFacts(cfg.home, env, scannerReadsOpen ? null : dev)),
  ]);
  // (a scan that fell back to find has no figure of the scanner's)
  const unseen: HomeUnseen = scannerReadsOpen
    ? { ...facts.unseen, deletedOpen: reportedOpen(scan.deletedOpen ?? deletedButOpen(dev)) }
    : facts.unseen;
  const scanMs = Math.round((performance.now() - started) * 10) / 10;
  verbose(`scanned ${scan.roots.length} roots with ${scan.scanner} in ${scanMs} ms`);
  const report: Report = {
    version: REPORT_FORMAT_VERSION,
    id: crypto.randomUUID(),
    collectedAt: now.toISOString(),
    workspace: cfg.identity,
    volume: facts.volume,
    reporter: { version: REPORTER_VERSION, scanMs },
    roots: scan.roots.slice(0, LIMITS.roots),
    agentRetention: facts.agentRetention,
  };
  // Set by the module's script when the reporter it downloaded last failed and it ran this one, kept from before.
  const fellBackFrom = env.STORAGE_REPORTER_FELL_BACK_FROM?.trim().slice(0, 50);
  if (fellBackFrom) report.reporter.fellBackFrom = fellBackFrom;
  if (scan.home) report.home = homeUsage(cfg.home, scan.home, report.roots, specs, unseen);
  report.persistence = reportPersistence(cfg.home, specs, report.roots);
  if (scan.errors.items.length) report.errors = scan.errors.items.map(withWirePath);
  if (scan.errors.dropped) verbose(`${scan.errors.dropped} more scan errors not listed`);
  return report;
}

/** What a report says of the home beside the walk's figures. */
type HomeFacts = { unseen: HomeUnseen; volume: Volume | null; agentRetention: AgentRetention };

function readHomeFacts(home: string, env: Env, openOn: number | null): HomeFacts {
  return {
    unseen: homeUnseen(home, openOn),
    volume: volumeOf(home),
    agentRetention: readAgentRetention(home, env),
  };
}

/** The volume holding `dir` as df shows it; null where statfs is missing (Node before 18.15) or fails. */
export function volumeOf(dir: string): Volume | null {
  if (typeof fs.statfsSync !== "function") return null;
  try {
    return volumeFromStatfs(fs.statfsSync(dir));
  } catch {
    return null;
  }
}
