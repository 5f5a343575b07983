import "server-only";
import { Gauge, Registry } from "prom-client";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { getFleetMetrics, type FleetMetrics, type VolumeSeries } from "@/lib/db/queries/metrics";
import { backupRegistry } from "./backup";
import { processMetrics } from "./process";
import { restartRegistry } from "./restart";
import { usageRegistry } from "./usage";

// The exposition of GET /metrics: the fleet's figures, read from the database at each scrape into a registry of
// their own (so a workspace or agent that is gone leaves no stale series behind), then this process's counters.
// Labels are bounded: agent, template, organization, severity, state (a cleanup job's), reason, outcome; the volume
// series alone are per workspace (workspace and owner), because admins alert on each volume: by default only the
// volumes at risk have them, the fleet's count of those by template standing for the rest (at 100,000 workspaces
// a series pair for every volume made the scrape 19 MB, 8.85 x the fleet's sum by agent). No path or root key is a
// label.

/** The Prometheus text exposition format's content type. */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

function gauge<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[] = []) {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

/** The volumes at risk by template, and the volumes that have series of their own (`m.volumes`). */
function volumeGauges(r: Registry, m: FleetMetrics) {
  const atRisk = gauge(
    r,
    "coder_storage_volumes_at_risk",
    "Home volumes at risk as the volumes-at-risk page counts them, by template and reason: out of space, out of inodes (not of space), or filling within the volume-filling rule's days.",
    ["template", "reason"],
  );
  for (const t of m.atRisk) {
    atRisk.set({ template: t.template, reason: "space" }, t.space);
    atRisk.set({ template: t.template, reason: "inodes" }, t.inodes);
    atRisk.set({ template: t.template, reason: "filling" }, t.filling);
  }

  const labels = ["workspace", "owner"] as const;
  const used = gauge(
    r,
    "coder_storage_workspace_volume_used_bytes",
    "The home volume's used bytes (df's Used) at the workspace's newest report; only volumes at risk unless STORAGE_METRICS_VOLUMES=all.",
    labels,
  );
  const avail = gauge(
    r,
    "coder_storage_workspace_volume_avail_bytes",
    "The home volume's bytes available to the workspace's user (df's Avail) at its newest report; only volumes at risk unless STORAGE_METRICS_VOLUMES=all.",
    labels,
  );
  const inodes = gauge(
    r,
    "coder_storage_workspace_volume_inodes_used_ratio",
    "The home volume's inodes in use, IUsed / (IUsed + IFree) as df -i counts them, at the newest report; only volumes at risk unless STORAGE_METRICS_VOLUMES=all.",
    labels,
  );
  for (const v of m.volumes) {
    const l = { workspace: v.workspace, owner: v.owner };
    used.set(l, v.usedBytes);
    avail.set(l, v.availBytes);
    if (v.inodesUsedRatio !== null) inodes.set(l, v.inodesUsedRatio);
  }
}

function fleetRegistry(m: FleetMetrics): Registry {
  const r = new Registry();
  const agentBytes = gauge(
    r,
    "coder_storage_fleet_bytes",
    "Bytes (allocated, as du counts them) in the fleet's storage roots now, by agent as the fleet chart groups them.",
    ["agent"],
  );
  for (const a of m.agents) agentBytes.set({ agent: a.agent }, a.bytes);

  const enrolled = gauge(r, "coder_storage_workspaces", "Enrolled workspaces, by template.", ["template"]);
  const reporting = gauge(
    r,
    "coder_storage_workspaces_reporting",
    "Workspaces that have sent at least one report, by template.",
    ["template"],
  );
  const silent = gauge(
    r,
    "coder_storage_workspaces_silent",
    "Workspaces without a report for longer than the silent-workspace rule allows (counted from enrollment when they never reported), by template.",
    ["template"],
  );
  for (const t of m.templates) {
    enrolled.set({ template: t.template }, t.workspaces);
    reporting.set({ template: t.template }, t.reporting);
    silent.set({ template: t.template }, t.silent);
  }
  gauge(
    r,
    "coder_storage_silent_threshold_seconds",
    "How long a workspace may go without a report before it counts as silent (the silent-workspace rule).",
  ).set(m.silentHours * 3600);

  const findings = gauge(r, "coder_storage_findings", "Findings now, by severity (as the findings page counts them).", [
    "severity",
  ]);
  for (const [severity, n] of Object.entries(m.findings)) findings.set({ severity }, n);

  const jobs = gauge(r, "coder_storage_cleanup_jobs", "Cleanup jobs of the runs kept, by the state the pages show.", [
    "state",
  ]);
  // Every state has its series, zero included, so a panel or a rule never sees one appear from nothing.
  for (const state of SHOWN_JOB_STATES) jobs.set({ state }, 0);
  for (const j of m.jobs) jobs.set({ state: j.state }, j.jobs);
  gauge(
    r,
    "coder_storage_cleanup_freed_bytes",
    "Bytes removed (deleted or trashed) by the cleanup jobs of the runs kept; dry runs left out.",
  ).set(m.freedBytes);

  volumeGauges(r, m);
  return r;
}

/**
 * The whole exposition, as text. `volumes`: whose volumes have series of their own (STORAGE_METRICS_VOLUMES).
 * The parts are read side by side: on PostgreSQL each on a connection of its own, so a scrape takes about its
 * slowest part rather than their sum.
 */
export async function renderMetrics(
  db: Db,
  { now = new Date(), volumes = config().metricsVolumes }: { now?: Date; volumes?: VolumeSeries } = {},
): Promise<string> {
  const registries = await Promise.all([
    getFleetMetrics(db, now, volumes).then(fleetRegistry),
    restartRegistry(db),
    usageRegistry(db, now),
    backupRegistry(db),
  ]);
  return Registry.merge([...registries, processMetrics().registry]).metrics();
}
