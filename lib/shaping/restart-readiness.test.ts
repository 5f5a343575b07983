import { describe, expect, it } from "vitest";
import type { Persistence } from "@/lib/report-format/persistence";
import { restartReadiness, type ReadinessRoot } from "./restart-readiness";

const MiB = 1024 ** 2;
const PVC = { mountPoint: "/home/coder", fsType: "ext4", source: "/dev/rbd0", root: "/", homeVolume: true };
const TMPFS = { mountPoint: "/tmp", fsType: "tmpfs", source: "tmpfs", root: "/", homeVolume: false };
const P: Persistence = {
  home: { mount: PVC, verdict: "persistent", reason: "a volume mounted at the home" },
  roots: {
    "claude-code:data": { mount: PVC, verdict: "persistent", reason: "on the home's volume" },
    "claude-code:config": { mount: PVC, verdict: "persistent", reason: "on the home's volume" },
    "codex:data": {
      mount: TMPFS,
      verdict: "not-persistent",
      reason: "tmpfs is memory, lost at every stop",
      link: { path: ".codex", target: "/tmp/codex" },
    },
    "coder/claude-code": { mount: PVC, verdict: "persistent", reason: "on the home's volume" },
  },
  agentapi: [
    {
      root: "coder/claude-code",
      persistence: "on",
      stateFile: ".coder-modules/coder/claude-code/agentapi-state.json",
      stateMtime: "2026-11-20T08:00:00.000Z",
    },
  ],
};
const ROOTS: ReadinessRoot[] = [
  { key: "claude-code:data", kind: "tool", agent: "claude-code", newestMtime: "2026-11-20T10:00:00.000Z" },
  { key: "claude-code:config", kind: "tool", agent: "claude-code", newestMtime: "2026-11-19T10:00:00.000Z" },
  { key: "coder/claude-code", kind: "module", agent: "claude-code", newestMtime: null },
  { key: "codex:data", kind: "tool", agent: "codex", newestMtime: null },
  { key: "aider-notes", kind: "custom", agent: "aider", newestMtime: null },
  { key: "script-data:1", kind: "script-data", agent: "other", newestMtime: null },
];

describe("resume readiness", () => {
  it("says per agent its support, module, whether its sessions survive, its state file and its space", () => {
    const out = restartReadiness(P, ROOTS, 80 * MiB);
    expect(out.map((a) => a.agent)).toEqual(["claude-code", "codex"]);
    expect(out[0]).toMatchObject({
      support: "full",
      modules: ["coder/claude-code"],
      minVersion: "4.8.0",
      survives: "persistent",
      minBytes: 100 * MiB,
      enoughSpace: false,
      stateFiles: [{ persistence: "on", behindHours: 2 }],
    });
    expect(out[1]).toMatchObject({
      support: "full",
      survives: "not-persistent",
      why: "codex:data: .codex → /tmp/codex, tmpfs is memory, lost at every stop",
      modules: [],
      stateFiles: [],
    });
  });

  it("says nothing for a report without persistence facts, and unknown for a root it does not place", () => {
    expect(restartReadiness(null, ROOTS, null)).toEqual([]);
    const out = restartReadiness({ ...P, roots: {} }, ROOTS, null);
    expect(out[0]).toMatchObject({ survives: "unknown", why: "claude-code:data: not reported", enoughSpace: null });
  });
});
