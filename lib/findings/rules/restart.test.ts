import { beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "@/tests/support/db";
import { FLEET } from "@/lib/db/scope";
import { listFindings } from "@/lib/db/queries/findings";
import type { MountFacts, Persistence, Placement } from "@/lib/report-format/persistence";
import { at, enroll, GiB, MiB, send, testNow, type RootSpec, type WorkspaceSpec } from "@/tests/support/reports";
import { restartRules } from "./restart";

// The restart findings over ingested reports whose mounts are as Coder's templates make them: a PVC at the home
// (kubernetes template), a Docker container without a home volume (its overlay layer), a tmpfs over an agent's
// folder, a link from the home into a RAM disk, a module writing into the current script-data folder, a nearly
// full volume, and AgentAPI state files. Each workspace raises exactly the findings named for it.

const now = testNow();
const PVC: MountFacts = {
  mountPoint: "/home/coder",
  fsType: "ext4",
  source: "/dev/rbd0",
  root: "/",
  homeVolume: true,
};
const OVERLAY: MountFacts = { mountPoint: "/", fsType: "overlay", source: "overlay", root: "/", homeVolume: true };
const tmpfs = (mountPoint: string): MountFacts => ({
  mountPoint,
  fsType: "tmpfs",
  source: "tmpfs",
  root: "/",
  homeVolume: false,
});
const on = (mount: MountFacts): Placement => ({ mount, verdict: "persistent", reason: "a volume mounted at the home" });
const lost = (mount: MountFacts, link?: Placement["link"]): Placement => ({
  mount,
  verdict: "not-persistent",
  reason: "lost",
  ...(link ? { link } : {}),
});
const sessions = { sessions: { bytes: 300 * MiB, files: 40 } };
const claude: RootSpec = { key: "claude-code:data", agent: "claude-code", bytes: 400 * MiB, categories: sessions };
const hours = (n: number) => new Date(Date.parse(at(now, 0)) - n * 3600_000).toISOString();

type Case = {
  ws: WorkspaceSpec;
  roots: RootSpec[];
  persistence: Persistence;
  freeBytes?: number;
  expected: [rule: string, root: string | null, path: string | null][];
};

const CASES: Case[] = [
  {
    ws: { id: "pvc-home", owner: "ann", template: "kubernetes" },
    roots: [claude],
    persistence: { home: on(PVC), roots: { "claude-code:data": { ...on(PVC), reason: "on the home's volume" } } },
    freeBytes: 10 * GiB,
    expected: [],
  },
  {
    ws: { id: "no-home-volume", owner: "bob", template: "docker-no-home" },
    roots: [claude],
    persistence: {
      home: lost(OVERLAY),
      roots: { "claude-code:data": lost(OVERLAY) },
    },
    expected: [["home-not-persistent", null, "docker-no-home"]],
  },
  {
    ws: { id: "codex-on-ram", owner: "cid", template: "codex-ram" },
    roots: [
      { key: "codex:data", agent: "codex", bytes: 500 * MiB, categories: sessions, newestMtime: hours(1) },
      // A link is not followed: the report counts the link alone, yet behind it is Gemini's session folder.
      { key: "gemini:data", agent: "gemini", bytes: 0, files: 1, categories: { other: { bytes: 0, files: 1 } } },
      { key: "amp:data", agent: "amp", bytes: 2 * MiB, categories: { other: { bytes: 2 * MiB, files: 3 } } },
    ],
    persistence: {
      home: on(PVC),
      roots: {
        "codex:data": lost(tmpfs("/home/coder/.codex")),
        "gemini:data": lost(tmpfs("/tmp"), { path: ".gemini", target: "/tmp/gemini" }),
        "amp:data": lost(tmpfs("/home/coder/.config/amp")),
      },
    },
    expected: [
      ["agent-data-lost", "amp:data", "tmpfs at /home/coder/.config/amp"],
      ["agent-sessions-lost", "codex:data", "tmpfs at /home/coder/.codex"],
      ["agent-sessions-lost", "gemini:data", ".gemini → /tmp/gemini"],
    ],
  },
  {
    ws: { id: "script-data", owner: "dee", template: "kubernetes" },
    roots: [
      { key: "script-data:current", agent: "other", kind: "script-data", bytes: 8 * MiB, files: 3, orphaned: false },
      { key: "script-data:old", agent: "other", kind: "script-data", bytes: 8 * MiB, files: 3, orphaned: true },
      { key: "script-data:empty", agent: "other", kind: "script-data", bytes: 4096, files: 0, orphaned: false },
    ],
    persistence: { home: on(PVC), roots: {} },
    expected: [["script-data-in-use", "script-data:current", ".script-data-current"]],
  },
  {
    ws: { id: "low-space", owner: "eve", template: "kubernetes" },
    roots: [claude, { key: "goose:data", agent: "goose", bytes: MiB }],
    persistence: { home: on(PVC), roots: {} },
    freeBytes: 80 * MiB, // below Claude Code's 100 MB, above Goose's 50 MB
    expected: [["below-agent-minimum", "claude-code:data", null]],
  },
  {
    ws: { id: "agentapi", owner: "fay", template: "kubernetes" },
    roots: [
      { ...claude, newestMtime: hours(1) },
      { key: "coder/claude-code", agent: "claude-code", kind: "module", bytes: MiB },
      { key: "legacy:claude-module", agent: "claude-code", kind: "legacy", bytes: MiB },
      { key: "legacy:codex-module", agent: "codex", kind: "legacy", bytes: MiB },
      { key: "codex:data", agent: "codex", bytes: MiB, newestMtime: hours(1) },
      { key: "legacy:goose-module", agent: "goose", kind: "legacy", bytes: MiB },
    ],
    persistence: {
      home: on(PVC),
      roots: {},
      agentapi: [
        {
          root: "coder/claude-code",
          persistence: "on",
          stateFile: ".coder-modules/coder/claude-code/agentapi-state.json",
          stateMtime: null,
        },
        {
          root: "legacy:claude-module",
          persistence: "unknown",
          stateFile: ".claude-module/agentapi-state.json",
          stateMtime: hours(49),
        },
        {
          root: "legacy:codex-module",
          persistence: "on",
          stateFile: ".codex-module/agentapi-state.json",
          stateMtime: hours(2),
        },
        {
          root: "legacy:goose-module",
          persistence: "off",
          stateFile: ".goose-module/agentapi-state.json",
          stateMtime: null,
        },
      ],
    },
    expected: [
      ["agentapi-state", "coder/claude-code", ".coder-modules/coder/claude-code/agentapi-state.json (missing)"],
      ["agentapi-state", "legacy:claude-module", ".claude-module/agentapi-state.json"],
    ],
  },
];

describeEachDatabase("the restart findings", (t) => {
  beforeAll(async () => {
    for (const c of CASES) {
      await enroll(t.current.db, c.ws);
      const volume = c.freeBytes === undefined ? undefined : { totalBytes: 20 * GiB, freeBytes: c.freeBytes };
      await send(t.current.db, c.ws, at(now, 0), c.roots, volume, { persistence: c.persistence });
    }
  });

  it.each(CASES)("$ws.id raises exactly its findings", async (c) => {
    const all = await listFindings(t.current.db, FLEET, { now, workspace: c.ws.id });
    const mine = all.findings
      .filter((f) => f.ruleId in restartRules)
      .flatMap((f) => f.members.map((m) => [f.ruleId, m.rootKey, m.path])) // a row groups one agent's findings
      .sort();
    expect(mine).toEqual(c.expected);
  });

  it("words what is lost and the fix, naming the template", async () => {
    const l = await listFindings(t.current.db, FLEET, { now, rule: "home-not-persistent" });
    expect(l.findings[0]).toMatchObject({
      severity: "critical",
      message: expect.stringMatching(/not on a persistent volume.*lost at every stop/),
      action: expect.stringContaining("template docker-no-home"),
    });
    const s = await listFindings(t.current.db, FLEET, { now, rule: "agent-sessions-lost" });
    const byAgent = Object.fromEntries(s.findings.map((f) => [f.agent, f]));
    expect(byAgent.codex).toMatchObject({ severity: "critical", message: expect.stringContaining("500 MiB") });
    expect(byAgent.gemini.message).toBe(
      "Gemini CLI's gemini:data lives on .gemini → /tmp/gemini, lost at every stop (behind a link, not measured, sessions included).",
    );
    const d = await listFindings(t.current.db, FLEET, { now, rule: "agent-data-lost" });
    expect(d.findings[0].severity).toBe("warning");
    const m = await listFindings(t.current.db, FLEET, { now, rule: "below-agent-minimum" });
    expect(m.findings[0]).toMatchObject({ value: 80 * MiB, threshold: 100 * MiB });
    const a = await listFindings(t.current.db, FLEET, { now, rule: "agentapi-state", workspace: "agentapi" });
    // Claude Code's two module folders make one row.
    expect(a.findings).toHaveLength(1);
    expect(a.findings[0]).toMatchObject({ count: 2, message: expect.stringContaining("2 ") });
    const stale = a.findings[0].members.find((f) => f.rootKey === "legacy:claude-module")!;
    expect(Math.round(stale.value)).toBe(48);
  });
});
