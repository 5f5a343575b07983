// What survives a restart, from real mounts to the findings (CI runs as root): the reporter scans a home on this
// machine's disk with a tmpfs mounted over ~/.codex and ~/.claude linked into another tmpfs, and a home inside an
// overlay; the reports are ingested on both databases, and the dashboard raises exactly the restart findings that
// each calls for: none for the roots on the persistent disk.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFindings } from "@/lib/db/queries/findings";
import { FLEET } from "@/lib/db/scope";
import { describeEachDatabase } from "@/tests/support/db";
import { restartRules } from "@/lib/findings/rules/restart";
import { keptRefresherFor } from "@/lib/ingest/kept-refresh";
import { ingestReport } from "@/lib/ingest/report";
import { parseReport } from "@/lib/ingest/parse-report";
import type { Report } from "@/lib/report-format/schema";
import { buildReport } from "@/lib/reporter/scan/build-report";
import { canMountTmpfs } from "@/tests/support/reporter";
import { enroll } from "@/tests/support/reports";

const mounted: string[] = [];
let base = "";
const reports: Report[] = [];

function mount(...args: string[]) {
  execFileSync("mount", args);
  mounted.unshift(args[args.length - 1]);
}

function write(file: string, bytes: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 1));
}

async function report(home: string, id: string, template: string): Promise<Report> {
  const r = await buildReport(
    { home, identity: { id, name: id, owner: "olga", template }, config: null },
    {},
    { mode: "find", native: null },
    new Date(),
    () => {},
  );
  return parseReport(JSON.parse(JSON.stringify(r)));
}

describe.skipIf(!canMountTmpfs())("real mounts (skipped: this process may not mount)", () => {
  beforeAll(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "restart-survival-")));
    // A home on the disk: Gemini's chats stay there; Codex's folder is a tmpfs; ~/.claude links into a RAM disk.
    const disk = path.join(base, "disk-home");
    write(path.join(disk, ".gemini/tmp/abc/chats/session-1.json"), 40_000);
    fs.mkdirSync(path.join(disk, ".codex"));
    mount("-t", "tmpfs", "-o", "size=8m", "tmpfs", path.join(disk, ".codex"));
    write(path.join(disk, ".codex/sessions/2026/11/20/rollout-1.jsonl"), 300_000);
    const ram = path.join(base, "ram");
    fs.mkdirSync(ram);
    mount("-t", "tmpfs", "-o", "size=8m", "tmpfs", ram);
    write(path.join(ram, "claude/projects/p/one.jsonl"), 20_000);
    fs.symlinkSync(path.join(ram, "claude"), path.join(disk, ".claude"));
    reports.push(await report(disk, "disk-home", "vm"));

    // A home in a container's layer: overlay, as a template without a home volume leaves it.
    const [lower, upper, work, merged] = ["lower", "upper", "work", "merged"].map((d) => path.join(base, d));
    for (const d of [lower, upper, work, merged]) fs.mkdirSync(d);
    write(path.join(lower, "home/coder/.codex/sessions/2026/11/20/rollout-2.jsonl"), 50_000);
    mount("-t", "overlay", "overlay", "-o", `lowerdir=${lower},upperdir=${upper},workdir=${work}`, merged);
    reports.push(await report(path.join(merged, "home/coder"), "overlay-home", "docker-no-home"));
  });

  afterAll(() => {
    for (const m of mounted) execFileSync("umount", [m]);
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it("marks each root and the home in the reports", () => {
    const [disk, overlay] = reports.map((r) => r.persistence!);
    expect(disk.home.verdict).toBe("persistent");
    expect(
      Object.fromEntries(Object.entries(disk.roots).map(([k, p]) => [k, [p.verdict, p.mount?.fsType, !!p.link]])),
    ).toEqual({
      "claude-code:data": ["not-persistent", "tmpfs", true],
      "codex:data": ["not-persistent", "tmpfs", false],
      "gemini:data": ["persistent", "ext4", false],
    });
    expect(overlay.home).toMatchObject({ verdict: "not-persistent", mount: { fsType: "overlay" } });
    expect(overlay.roots["codex:data"]).toMatchObject({ verdict: "not-persistent", mount: { homeVolume: true } });
  });

  describeEachDatabase("the restart findings of real mounts", (t) => {
    beforeAll(async () => {
      for (const r of reports) {
        await enroll(t.current.db, { id: r.workspace.id, owner: r.workspace.owner, template: r.workspace.template });
        await ingestReport(t.current.db, r.workspace.id, r, new Date());
      }
      await keptRefresherFor(t.current.db).drain();
    });

    it("raises exactly the findings each home calls for, none for the roots on the persistent disk", async () => {
      const all = await listFindings(t.current.db, FLEET, { now: new Date() });
      const restart = all.findings
        .filter((f) => f.ruleId in restartRules)
        .flatMap((f) => f.members.map((m) => [f.workspace.id, f.ruleId, m.rootKey, f.severity]))
        .sort();
      expect(restart).toEqual([
        ["disk-home", "agent-sessions-lost", "claude-code:data", "critical"],
        ["disk-home", "agent-sessions-lost", "codex:data", "critical"],
        ["overlay-home", "home-not-persistent", null, "critical"],
      ]);
      const home = all.findings.find((f) => f.ruleId === "home-not-persistent")!;
      expect(home.action).toContain("template docker-no-home");
    });
  });
});
