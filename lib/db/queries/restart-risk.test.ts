import { parse } from "csv-parse/sync";
import { Registry } from "prom-client";
import { beforeAll, expect, it } from "vitest";
import { openCsvStream } from "@/lib/csv/stream";
import { sql } from "drizzle-orm";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET, ownedBy } from "@/lib/db/scope";
import { restartRiskExport } from "@/lib/export/restart-risk";
import { restartRegistry } from "@/lib/metrics/restart";
import type { MountFacts, Persistence } from "@/lib/report-format/persistence";
import { at, enroll, MiB, send, testNow, type RootSpec, type WorkspaceSpec } from "@/tests/support/reports";
import { getRestartRisk } from "./restart-risk";

// The "Lost at restart" view, its CSV and its metric over one fleet: a Docker template without a home volume
// (two workspaces), a template whose Codex folder is on a tmpfs (one of its two workspaces), a Kubernetes
// template with a PVC at the home, and a workspace whose reporter says nothing of its mounts.

const now = testNow();
const OVERLAY: MountFacts = { mountPoint: "/", fsType: "overlay", source: "overlay", root: "/", homeVolume: true };
const PVC: MountFacts = { mountPoint: "/home/coder", fsType: "ext4", source: "/dev/rbd0", root: "/", homeVolume: true };
const RAM: MountFacts = {
  mountPoint: "/home/coder/.codex",
  fsType: "tmpfs",
  source: "tmpfs",
  root: "/",
  homeVolume: false,
};
const claude: RootSpec = {
  key: "claude-code:data",
  agent: "claude-code",
  bytes: 30 * MiB,
  categories: { sessions: { bytes: 20 * MiB, files: 4 } },
};
const codex: RootSpec = {
  key: "codex:data",
  agent: "codex",
  bytes: 50 * MiB,
  categories: { sessions: { bytes: 40 * MiB, files: 9 } },
};
const docker = (verdict: "persistent" | "not-persistent", mount: MountFacts, reason: string) => ({
  mount,
  verdict,
  reason,
});
const overlayHome: Persistence = {
  home: docker("not-persistent", OVERLAY, "the container's writable layer (overlay) is lost when the workspace stops"),
  roots: { "claude-code:data": docker("not-persistent", OVERLAY, "on the home's volume") },
};
const pvcHome = (roots: Persistence["roots"] = {}): Persistence => ({
  home: docker("persistent", PVC, "a volume mounted at the home"),
  roots: { "claude-code:data": docker("persistent", PVC, "on the home's volume"), ...roots },
});

const FLEET_SPEC: { ws: WorkspaceSpec; roots: RootSpec[]; persistence?: Persistence }[] = [
  { ws: { id: "d1", owner: "ann", template: "docker-no-home" }, roots: [claude], persistence: overlayHome },
  { ws: { id: "d2", owner: "bob", template: "docker-no-home" }, roots: [claude], persistence: overlayHome },
  {
    ws: { id: "r1", owner: "ann", template: "codex-ram" },
    roots: [claude, codex],
    persistence: pvcHome({ "codex:data": docker("not-persistent", RAM, "tmpfs is memory, lost at every stop") }),
  },
  { ws: { id: "r2", owner: "bob", template: "codex-ram" }, roots: [claude], persistence: pvcHome() },
  { ws: { id: "k1", owner: "cat", template: "kubernetes" }, roots: [claude], persistence: pvcHome() },
  { ws: { id: "old", owner: "cat", template: "kubernetes" }, roots: [claude] },
];

describeEachDatabase("the lost-at-restart view", (t) => {
  beforeAll(async () => {
    for (const f of FLEET_SPEC) {
      await enroll(t.current.db, f.ws);
      await send(
        t.current.db,
        f.ws,
        at(now, 0),
        f.roots,
        undefined,
        f.persistence ? { persistence: f.persistence } : {},
      );
    }
  });

  it("groups the workspaces at risk by template, the whole home first, with what each loses", async () => {
    const risk = await getRestartRisk(t.current.db, FLEET);
    expect({ atRisk: risk.atRisk, reporting: risk.reporting }).toEqual({ atRisk: 3, reporting: 5 });
    expect(risk.templates.map((g) => [g.template, g.workspaces, g.atRisk.map((w) => w.id)])).toEqual([
      ["docker-no-home", 2, ["d1", "d2"]],
      ["codex-ram", 2, ["r1"]],
    ]);
    expect(risk.templates[0].atRisk[0]).toMatchObject({ homeLost: true, home: "overlay at /", lostBytes: 30 * MiB });
    expect(risk.templates[1].atRisk[0]).toMatchObject({
      homeLost: false,
      lost: [{ key: "codex:data", agent: "codex", where: "tmpfs at /home/coder/.codex", sessionBytes: 40 * MiB }],
      lostBytes: 50 * MiB,
    });
  });

  it("shows a member only their own workspaces", async () => {
    const risk = await getRestartRisk(t.current.db, ownedBy("bob"));
    expect(risk.templates.flatMap((g) => g.atRisk.map((w) => w.id))).toEqual(["d2"]);
  });

  it("exports a row per folder lost, read back with an independent parser", async () => {
    const exp = await restartRiskExport(t.current.db, FLEET, {}, now);
    const rows = parse(await new Response(await openCsvStream(exp)).text(), { columns: true }) as Record<
      string,
      string
    >[];
    expect(
      rows.map((r) => [r.template, r.workspace_id, r.home_lost, r.root, r.where, r.bytes, r.session_bytes]),
    ).toEqual([
      ["docker-no-home", "d1", "true", "claude-code:data", "overlay at /", String(30 * MiB), String(20 * MiB)],
      ["docker-no-home", "d2", "true", "claude-code:data", "overlay at /", String(30 * MiB), String(20 * MiB)],
      ["codex-ram", "r1", "false", "codex:data", "tmpfs at /home/coder/.codex", String(50 * MiB), String(40 * MiB)],
    ]);
  });

  it("narrows to one template or one workspace", async () => {
    const one = await getRestartRisk(t.current.db, FLEET, { template: "codex-ram" });
    expect(one.templates.map((g) => [g.template, g.workspaces, g.atRisk.length])).toEqual([["codex-ram", 2, 1]]);
    const ws = await getRestartRisk(t.current.db, FLEET, { workspace: "d2" });
    expect(ws.templates.flatMap((g) => g.atRisk.map((w) => w.id))).toEqual(["d2"]);
  });

  it("counts the workspaces at risk per template for Prometheus", async () => {
    const text = await Registry.merge([await restartRegistry(t.current.db)]).metrics();
    expect(text).toContain('coder_storage_workspaces_lost_at_restart{template="docker-no-home"} 2');
    expect(text).toContain('coder_storage_workspaces_lost_at_restart{template="codex-ram"} 1');
    expect(text).not.toContain('template="kubernetes"');
  });

  // The rows are read by the index on whether a workspace loses something (losesAtRestart): a newer report's
  // facts move a workspace in or out of it, and a workspace deleted in Coder leaves it. Last: it changes the fleet.
  it("follows newer reports and deletions", async () => {
    const ids = async () =>
      (await getRestartRisk(t.current.db, FLEET)).templates.flatMap((g) => g.atRisk.map((w) => w.id)).sort();
    const [r1, r2] = FLEET_SPEC.filter((f) => f.ws.template === "codex-ram");
    await send(t.current.db, r1.ws, at(now, 0, 11), r1.roots, undefined, { persistence: pvcHome() });
    await send(t.current.db, r2.ws, at(now, 0, 11), [claude, codex], undefined, {
      persistence: pvcHome({ "codex:data": docker("not-persistent", RAM, "tmpfs is memory, lost at every stop") }),
    });
    expect(await ids()).toEqual(["d1", "d2", "r2"]);
    await t.current.db.execute(sql`update workspaces set deleted_at = now() where id = 'd1'`);
    const risk = await getRestartRisk(t.current.db, FLEET);
    expect(await ids()).toEqual(["d2", "r2"]);
    expect(risk.reporting).toBe(4);
  });
});
