import { millisecondsInDay as DAY, millisecondsInHour } from "date-fns/constants";
import type { Db } from "@/lib/db";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { ingestReport } from "@/lib/ingest/report";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { REPORT_FORMAT_VERSION } from "@/lib/report-format/constants";
import { parseReport } from "@/lib/ingest/parse-report";
import { REPORTER_VERSION } from "@/lib/reporter/version";
import type { AgentRetention, Report, WorkspaceIdentity } from "@/lib/report-format/schema";
import { createRandom, type Random } from "./random";
import { demoHome, drawHomeShape, metadataBytes, type HomeShape } from "./home";
import { demoCacheRoots } from "./package-caches";
import { assignRestartTemplates, demoPersistence } from "./persistence";
import { demoRetention } from "./retention";
import { agentProfiles, GiB, OWNERS, PROJECTS, scriptData, TEMPLATES } from "./profiles";
import { SimulatedRoot, type Room } from "./roots";

export type DemoOptions = {
  workspaces: number;
  /** Days of reports (history) to store, ending now. */
  days: number;
  /** Days the fleet has existed before now (at least `days`): the same value gives the same fleet. */
  simulateDays?: number;
  /** Reports per workspace per day (the reporter's schedule). */
  reportsPerDay?: number;
  now?: Date;
  seed?: number;
  onProgress?: (done: number, total: number) => void;
};

type SimWorkspace = {
  identity: WorkspaceIdentity;
  roots: SimulatedRoot[];
  scriptData: SimulatedRoot;
  orphans: SimulatedRoot[];
  volumeTotal: number;
  /** ext4 keeps 5 % of a volume for root: df's Used + Avail stops there. */
  reservedBytes: number;
  /** Bytes outside the measured roots (checkouts, node_modules, caches): Used is these plus the roots. */
  baseUsed: number;
  /** Its disk is full from the first report on: nobody tends it (its roots are never cleaned up). */
  full: boolean;
  inodesTotal: number;
  /** Files outside the measured roots (checkouts, node_modules, caches). */
  baseInodes: number;
  startDay: number;
  silentFromDay: number;
  restartEvery: number;
  activity: number;
  /** The agents' own retention settings its reports carry. */
  agentRetention?: AgentRetention;
  /** What its home holds besides the roots (lib/demo/home.ts). */
  homeShape?: HomeShape;
};

function makeWorkspace(rnd: Random, i: number, days: number): SimWorkspace {
  const owner = OWNERS[i % OWNERS.length];
  // A few workspaces are heavy users on small disks: they are the ones forecast to fill.
  const filling = rnd.chance(0.05);
  const heavy = filling ? 6 : rnd.chance(0.15) ? 3 : 1;
  const volumeTotal = filling ? 20 * GiB : rnd.pick([50, 100, 100, 200]) * GiB;
  // Besides chance, every 25th workspace's disk is already full and every 30th has used nearly all its inodes,
  // so even a small demo fleet shows both (the draws stay in place: the rest of the fleet does not change).
  const manyFiles = (!filling && rnd.chance(0.02)) || i % 30 === 9;
  const full = i % 25 === 4;
  const profiles = agentProfiles(rnd, heavy).map((p) => (full ? { ...p, cleanupChance: undefined } : p));
  const baseUsed = Math.round(rnd.between(filling ? 12 : 3, filling ? 14 : 15) * GiB);
  const startDay = rnd.chance(0.3) ? rnd.int(0, Math.floor(days * 0.6)) : 0;
  return {
    identity: {
      id: rnd.uuid(),
      name: `${rnd.pick(PROJECTS)}-${owner}-${i}`,
      owner,
      template: rnd.pick(TEMPLATES),
      agent: "main",
    },
    roots: profiles.map((p) => new SimulatedRoot(p, rnd)),
    scriptData: new SimulatedRoot(scriptData(rnd, false), rnd),
    orphans: [],
    volumeTotal,
    reservedBytes: Math.round(volumeTotal * 0.05),
    // A full disk's base is set once its roots have their history (fillDisk).
    baseUsed,
    full,
    // mkfs.ext4's default of one inode per 16 KiB; a few workspaces hold millions of tiny files.
    inodesTotal: volumeTotal / (16 * 1024),
    baseInodes: Math.round(
      (volumeTotal / (16 * 1024)) * (manyFiles ? rnd.between(0.96, 0.99) : rnd.between(0.02, 0.2)),
    ),
    // A full disk is full of its agents' data too: it has existed from the first day.
    startDay: full ? 0 : startDay,
    silentFromDay: rnd.chance(0.04) ? days - rnd.int(2, 6) : Infinity,
    restartEvery: rnd.int(3, 12),
    activity: rnd.between(0.3, 1.2),
  };
}

const allRoots = (ws: SimWorkspace) => [...ws.roots, ws.scriptData, ...ws.orphans];
/** What df's Used + Avail adds up to. */
const capacity = (ws: SimWorkspace) => ws.volumeTotal - ws.reservedBytes;

/** What the workspace's disk still has room for: its roots grow into it and no further. */
function room(ws: SimWorkspace): Room {
  const taken = allRoots(ws).reduce(
    (s, r) => {
      const u = r.usage();
      return { bytes: s.bytes + u.bytes, inodes: s.inodes + u.inodes };
    },
    { bytes: 0, inodes: 0 },
  );
  return {
    bytes: Math.max(0, capacity(ws) - ws.baseUsed - taken.bytes),
    inodes: Math.max(0, ws.inodesTotal - ws.baseInodes - taken.inodes),
  };
}

/** A full disk: the rest of the home takes whatever the roots leave. */
function fillDisk(ws: SimWorkspace) {
  ws.baseUsed += room(ws).bytes;
}

/** Steps a root one day into the room the disk has left. */
function grow(ws: SimWorkspace, root: SimulatedRoot, now: number, activity: number) {
  root.step(now, activity, room(ws));
}

function buildReport(rnd: Random, ws: SimWorkspace, at: number): Report {
  const roots = allRoots(ws)
    .filter((r) => r.exists)
    .map((r) => r.measure(at));
  // Used is the roots and the rest of the home, so it moves with the roots, and they never exceed it.
  const used = ws.baseUsed + roots.reduce((s, r) => s + r.bytes, 0);
  const inodesUsed = ws.baseInodes + roots.reduce((s, r) => s + r.files + r.dirs, 0);
  const rest = { bytes: ws.baseUsed, inodes: ws.baseInodes, metadata: metadataBytes(ws.volumeTotal) };
  const home = ws.homeShape && demoHome(ws.homeShape, roots, rest);
  // the caches lie in the rest of the home (baseUsed): roots of their own, counted in Used once
  const caches = home ? demoCacheRoots(ws.homeShape!, home, ws.identity.id, at) : [];
  return {
    version: REPORT_FORMAT_VERSION,
    id: rnd.uuid(),
    collectedAt: new Date(at).toISOString(),
    workspace: ws.identity,
    volume: {
      totalBytes: ws.volumeTotal,
      usedBytes: used,
      freeBytes: capacity(ws) - used,
      inodes: { total: ws.inodesTotal, used: inodesUsed, free: ws.inodesTotal - inodesUsed },
    },
    // Today's reporter (build metadata marks it, and orders as the release): a recipe whose units changed leaves
    // out workspaces counted by an older one.
    reporter: { version: `${REPORTER_VERSION}+demo`, scanMs: Math.round(rnd.between(80, 900)) },
    roots: [...roots, ...caches],
    agentRetention: ws.agentRetention,
    home,
    persistence: demoPersistence(ws.identity, roots),
  };
}

/** The demo fleet: its workspaces, how many reports it sends, and the reports in the order they are sent. */
export type DemoFleet = { workspaces: WorkspaceIdentity[]; total: number; reports: () => Generator<Report> };

/**
 * Makes a realistic fleet and its last `days` of reports, oldest day first. The fleet lives `simulateDays`
 * (default `days`) before now; two calls that differ only in `days` end with the same fleet in the same state,
 * with more or less history. `reports()` runs the simulation: call it once.
 */
export function simulateDemoFleet(opts: DemoOptions): DemoFleet {
  const rnd = createRandom(opts.seed ?? 42);
  // Reports draw their own random numbers, so how many are sent does not change the simulated fleet.
  const reportRnd = createRandom((opts.seed ?? 42) ^ 0x5bd1e995);
  const now = (opts.now ?? new Date()).getTime();
  const perDay = opts.reportsPerDay ?? 1;
  const lifetime = Math.max(opts.days, opts.simulateDays ?? opts.days);
  const firstReported = lifetime - opts.days;
  const fleet = Array.from({ length: opts.workspaces }, (_, i) => makeWorkspace(rnd, i, lifetime));
  // Drawn apart, so that the settings do not change the simulated fleet.
  const settingsRnd = createRandom((opts.seed ?? 42) ^ 0x2f6e2b13);
  for (const ws of fleet) ws.agentRetention = demoRetention(settingsRnd, ws.identity.template);
  const homeRnd = createRandom((opts.seed ?? 42) ^ 0x1b873593);
  for (const ws of fleet) ws.homeShape = drawHomeShape(homeRnd);
  assignRestartTemplates(
    fleet.map((ws) => ({ identity: ws.identity, hasCodex: ws.roots.some((r) => r.profile.key === "codex:data") })),
  );
  // Workspaces that exist from the first day already hold weeks of data from before it.
  for (const ws of fleet) {
    if (ws.startDay > 0) continue;
    const preDays = rnd.int(7, 60);
    for (let d = preDays; d > 0; d--) for (const r of ws.roots) grow(ws, r, now - (lifetime + d) * DAY, ws.activity);
    if (ws.full) fillDisk(ws);
  }
  const reportedDays = (ws: SimWorkspace) =>
    Math.max(0, Math.min(lifetime, ws.silentFromDay) - Math.max(ws.startDay, firstReported));

  function* reports(): Generator<Report> {
    for (let day = 0; day < lifetime; day++) {
      const dayEnd = now - (lifetime - 1 - day) * DAY;
      for (const ws of fleet) {
        if (day < ws.startDay) continue;
        for (const r of ws.roots) grow(ws, r, dayEnd, ws.activity);
        if ((day - ws.startDay) % ws.restartEvery === 0 && day > ws.startDay) {
          // A workspace restart: CODER_SCRIPT_DATA_DIR moves to a new folder and the old one is orphaned.
          ws.scriptData.orphan();
          ws.orphans.push(ws.scriptData);
          // Someone occasionally clears the oldest ones by hand; the rest pile up.
          if (ws.orphans.length > 8) ws.orphans.shift();
          ws.scriptData = new SimulatedRoot(scriptData(rnd, false), rnd);
        }
        grow(ws, ws.scriptData, dayEnd, 1);
        if (day >= ws.silentFromDay || day < firstReported) continue;
        for (let k = 0; k < perDay; k++) {
          yield buildReport(
            reportRnd,
            ws,
            dayEnd - (perDay - 1 - k) * (DAY / perDay) - reportRnd.between(0, millisecondsInHour),
          );
        }
      }
    }
  }

  return {
    workspaces: fleet.map((ws) => ws.identity),
    total: fleet.reduce((s, ws) => s + reportedDays(ws), 0) * perDay,
    reports,
  };
}

// Reports in flight at once while seeding: the ingest queue commits the reports waiting together in one
// transaction, so one at a time paid a commit per report (a 40×30 fleet: 99.9 s one at a time, 7.2 s with 64).
const IN_FLIGHT = 64;

/** Stores the demo fleet through the same enrollment and ingest functions as real reports. */
export async function seedDemoFleet(db: Db, opts: DemoOptions): Promise<{ reports: number; workspaces: number }> {
  const fleet = simulateDemoFleet(opts);
  const { key } = await getEnrollmentKey(db);
  for (const identity of fleet.workspaces) await enrollWorkspace(db, identity, key, null);
  let reports = 0;
  const inFlight = new Set<Promise<unknown>>();
  for (const report of fleet.reports()) {
    // Validated like a report that came over HTTP, so the demo cannot drift from the format.
    const stored: Promise<unknown> = ingestReport(db, report.workspace.id, parseReport(report)).then(() => {
      inFlight.delete(stored);
      reports++;
      opts.onProgress?.(reports, fleet.total);
    });
    inFlight.add(stored);
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  // The pages read the kept aggregates: the demo opens on a fleet whose every report they already show.
  await keptRefresherFor(db).drain();
  return { reports, workspaces: fleet.workspaces.length };
}
