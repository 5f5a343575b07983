// The executor on real trees, checked file by file: each recipe removes exactly its units, links lead
// nowhere, units stay whole, and what is open, fresh, protected, kept or over the caps stays.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CACHE_RECIPE_IDS } from "@/lib/report-format/recipe-ids";
import { PROTECT_FILE, RECIPES, TRASH_DIR, type RecipeId } from "@/lib/catalog/recipes";
import type { ClaimedJob } from "@/lib/cleanup/protocol";
import { runCleanup, type ExecuteContext } from "./execute";
import {
  CLAUDE_SESSION_AGES,
  DEBUG_AGES,
  SESSION,
  age,
  buildCleanupHome,
  job,
  kubeletWalk,
  put,
  snapshot,
  cleanupContext,
} from "@/tests/support/cleanup-fixtures";
import { OLD_SESSION_ENTRIES, OTHER_SESSION_ENTRIES } from "@/tests/support/gemini-fixture";

type CacheRecipeId = (typeof CACHE_RECIPE_IDS)[number];
let tmp: string;
let home: string;
let outside: string;
let nowSec: number;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cleanup-exec-")));
  home = path.join(tmp, "home");
  outside = path.join(tmp, "outside");
  fs.mkdirSync(home);
  nowSec = Math.floor(Date.now() / 1000);
  buildCleanupHome(home, outside, nowSec);
  kubeletWalk(home); // every ctime now, as on a Kubernetes workspace after a pod start: ages are mtimes
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

function run(j: ClaimedJob, extra: Partial<ExecuteContext> = {}) {
  return runCleanup(j, { ...cleanupContext(home, { running: ["bash", "node"], nowSec }), ...extra });
}

/** Paths (relative to home) that a run removed, and that it added. */
function diff(before: Map<string, string>, after: Map<string, string>) {
  const gone = [...before.keys()]
    .filter((k) => !after.has(k) && !k.startsWith(".coder-modules/coder/storage-reporter"))
    .sort();
  const added = [...after.keys()]
    .filter((k) => !before.has(k) && !k.startsWith(".coder-modules/coder/storage-reporter"))
    .sort();
  return { gone, added };
}

const P = ".claude/projects/-work-app";
const sessionEntries = (n: number) => [
  `${P}/${SESSION(n)}`,
  `${P}/${SESSION(n)}.jsonl`,
  `${P}/${SESSION(n)}/subagents`,
  `${P}/${SESSION(n)}/subagents/agent-1.jsonl`,
  `${P}/${SESSION(n)}/tool-results`,
  `${P}/${SESSION(n)}/tool-results/r1.txt`,
];

/** What each recipe with olderThanDays 7 must remove: every entry, nothing else (no package cache here). */
const EXPECTED: Record<RecipeId, string[]> = {
  ...(Object.fromEntries(CACHE_RECIPE_IDS.map((id) => [id, [] as string[]])) as Record<CacheRecipeId, string[]>),
  "claude-code-sessions": [
    ...[3, 4, 6].flatMap(sessionEntries), // 20, 40, 100 days (10 days: session 2 too)
    ...sessionEntries(2),
    `${P}/${SESSION(50)}.jsonl`,
    // session 5 (60 days) holds a link to session 1: the link goes, session 1 stays
    ...sessionEntries(5),
    `${P}/${SESSION(5)}/subagents/link-to-s1`,
  ],
  "claude-code-debug": [
    ".claude/debug/d2.txt",
    ".claude/debug/d3.txt",
    ".claude/debug/d4.txt",
    ".claude/debug/outside-link",
  ],
  "claude-code-file-history": [
    ".claude/file-history/fh20",
    ".claude/file-history/fh20/v1",
    ".claude/file-history/fh20/v2",
    ".claude/file-history/fh40",
    ".claude/file-history/fh40/v1",
    ".claude/file-history/fh40/v2",
    ".claude/file-history/fh40/repo",
  ],
  "codex-rollouts": [
    ".codex/sessions/2025/01/01/rollout-2025-01-01T00-00-05-45.jsonl",
    ".codex/sessions/2025/01/03/rollout-2025-01-01T00-00-00-200.jsonl",
  ],
  // the old session whole, in five folders, with its subagent's parts; nothing of the young ones, nor orphans
  "gemini-chats": [".gemini/tmp/abc123/chats/session-35.json", ...OLD_SESSION_ENTRIES, ...OTHER_SESSION_ENTRIES],
  "copilot-sessions": [
    ".copilot/session-state/cs40",
    ".copilot/session-state/cs40/events.jsonl",
    ".copilot/session-state/cs40/session.db",
    ".copilot/session-state/cs40/session.db-wal",
  ],
  "cursor-chats": [".cursor/chats/h1/chat50", ".cursor/chats/h1/chat50/store.db"],
  "opencode-logs": [".local/share/opencode/log/10.log"],
  "opencode-tool-output": [".local/share/opencode/tool-output/t12"],
  "module-logs": [".coder-modules/coder/claude-code/logs/a.log"],
  "orphaned-script-data": [], // the root folder itself is its unit: checked below
  "agentapi-leftovers": [
    ".coder-modules/coder/claude-code/agentapi-state.json",
    ".coder-modules/coder/claude-code/agentapi.pid",
    ".claude-module/agentapi-state.json",
    ".claude-module/agentapi.pid",
    ".codex-module/agentapi.pid",
  ],
  "claude-code-mcp-logs": [
    ".cache/claude-cli-nodejs/-work-app/mcp-logs-github/2026-11-01T10-00-00-000Z.jsonl",
    ".cache/claude-cli-nodejs/-work-app/mcp-logs-ide/2026-10-01T10-00-00-000Z.jsonl",
  ],
  // every release but the newest, though all are older than 7 days
  "claude-code-versions": [".local/share/claude/versions/2.1.204", ".local/share/claude/versions/2.1.205"],
  "codex-releases": [
    ".codex/packages/standalone/releases/0.148.0-x86_64-unknown-linux-musl",
    ".codex/packages/standalone/releases/0.148.0-x86_64-unknown-linux-musl/bin",
    ".codex/packages/standalone/releases/0.148.0-x86_64-unknown-linux-musl/bin/codex",
  ],
  "copilot-versions": [".copilot/pkg/universal/1.0.31", ".copilot/pkg/universal/1.0.31/index.js"],
  "codex-archived-sessions": [".codex/archived_sessions/rollout-2026-09-01T10-00-00-9f8e.jsonl"],
  "opencode-snapshots": [
    ".local/share/opencode/snapshot/4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    ".local/share/opencode/snapshot/4b825dc642cb6eb9a060e54bf8d69288fbee4904/HEAD",
    ".local/share/opencode/snapshot/4b825dc642cb6eb9a060e54bf8d69288fbee4904/objects",
    ".local/share/opencode/snapshot/4b825dc642cb6eb9a060e54bf8d69288fbee4904/objects/pack",
    ".local/share/opencode/snapshot/4b825dc642cb6eb9a060e54bf8d69288fbee4904/objects/pack/pack-1.pack",
  ],
};

describe("each recipe acts on exactly its units", () => {
  for (const r of RECIPES) {
    it(`${r.id}`, async () => {
      const before = snapshot(home);
      const outsideBefore = snapshot(outside);
      const res = await run(job({ recipe: r.id }));
      expect(res.errors).toEqual([]);
      const { gone, added } = diff(before, snapshot(home));
      if (r.id === "orphaned-script-data") {
        expect(gone).toEqual([".coder/coder-script-data/old-1", ".coder/coder-script-data/old-1/state"]);
      } else expect(gone).toEqual([...EXPECTED[r.id]].sort());
      expect(added).toEqual([]);
      expect(snapshot(outside)).toEqual(outsideBefore); // link targets untouched
      expect(res.bytesActed).toBe(res.units.reduce((s, u) => s + u.bytes, 0));
      // the SQLite files no recipe splits are all still there
      for (const db of [
        ".local/share/goose/sessions/sessions.db",
        ".local/share/goose/sessions/sessions.db-wal",
        ".local/share/goose/sessions/sessions.db-shm",
        ".codex/state_5.sqlite",
        ".codex/state_5.sqlite-wal",
        ".codex/logs_2.sqlite",
        ".codex/logs_2.sqlite-wal",
        ".local/share/opencode/opencode.db-wal",
        ".copilot/session-state/cs3/session.db-wal",
        ".cursor/chats/h1/chat4/store.db",
      ]) {
        expect(fs.existsSync(path.join(home, db)), db).toBe(true);
      }
    });
  }

  it("never acts while a program that uses the units runs, or a module still starts AgentAPI", async () => {
    const before = snapshot(home);
    const facts =
      (running: string[], startSec = nowSec - 3600) =>
      () => ({ home, running: new Set(running), startSec });
    const busy = await run(job({ recipe: "opencode-snapshots" }), { guardFacts: facts(["opencode"]) });
    expect(busy.units).toEqual([]);
    expect(busy.skipped.map((x) => x.reason)).toEqual(["open", "open"]);
    expect(busy.logTail.join("\n")).toMatch(/opencode is running/);
    const agentapi = await run(job({ recipe: "agentapi-leftovers" }), { guardFacts: facts(["agentapi"]) });
    expect(agentapi.units).toEqual([]);
    // the module's start script wrote its log since the workspace started: the state file is still in use
    put(home, ".claude-module/agentapi-start.log", 200, 0, nowSec);
    const inUse = await run(job({ recipe: "agentapi-leftovers" }), { guardFacts: facts([]) });
    expect(inUse.units).toEqual([]);
    expect(inUse.logTail.join("\n")).toMatch(/\.claude-module started AgentAPI/);
    expect(diff(before, snapshot(home)).gone).toEqual([]);
    // a log from before this start is a leftover's too
    const later = await run(job({ recipe: "agentapi-leftovers" }), { guardFacts: facts([], nowSec + 60) });
    expect(later.units.length).toBe(5);
  });

  it("keeps the newest release whatever the parameters say", async () => {
    const res = await run(job({ recipe: "claude-code-versions", params: { olderThanDays: 7, keepNewest: 0 } }));
    expect(res.units.map((u) => u.path)).toEqual([
      ".local/share/claude/versions/2.1.204",
      ".local/share/claude/versions/2.1.205",
    ]);
    expect(res.skipped).toContainEqual({
      path: ".local/share/claude/versions/2.1.207",
      bytes: expect.any(Number),
      reason: "kept",
    });
  });

  it("a dry run touches nothing and lists exactly what the real run then removes", async () => {
    const before = snapshot(home);
    const dry = await run(job({ recipe: "claude-code-sessions", dryRun: true, params: { olderThanDays: 15 } }));
    expect(diff(before, snapshot(home))).toEqual({ gone: [], added: [] });
    expect([...snapshot(home)].filter(([k]) => !k.startsWith(".coder-modules/coder/storage-reporter"))).toEqual([
      ...before,
    ]);
    expect(dry.units.every((u) => u.action === "would-delete")).toBe(true);
    const real = await run(job({ recipe: "claude-code-sessions", params: { olderThanDays: 15 } }));
    expect(real.units.map((u) => [u.path, u.bytes])).toEqual(dry.units.map((u) => [u.path, u.bytes]));
    expect(real.units.map((u) => u.path)).toEqual([6, 5, 50, 4, 3].map((n) => `${P}/${SESSION(n)}.jsonl`)); // oldest first
    const { gone } = diff(before, snapshot(home));
    expect(gone).toEqual(
      [3, 4, 5, 6]
        .flatMap(sessionEntries)
        .concat(`${P}/${SESSION(5)}/subagents/link-to-s1`, `${P}/${SESSION(50)}.jsonl`)
        .sort(),
    );
  });
});

describe("ages are mtimes: a Kubernetes workspace after a pod start", () => {
  it("every ctime of the tree is now and every mtime old, yet the job acts on exactly the old units", async () => {
    const oldest = fs.lstatSync(path.join(home, `${P}/${SESSION(6)}.jsonl`), { bigint: true });
    expect(Number(oldest.ctimeNs / 1_000_000_000n)).toBeGreaterThan(nowSec - 600); // the walk reset it
    expect(Number(oldest.mtimeNs / 1_000_000_000n)).toBeLessThan(nowSec - 99 * 86_400); // 100 days
    const res = await run(job({ recipe: "claude-code-sessions", params: { olderThanDays: 30 } }));
    expect(res.units.map((u) => u.path)).toEqual([6, 5, 50, 4].map((n) => `${P}/${SESSION(n)}.jsonl`));
    expect(res.skipped).toEqual([]);
  });

  it("a run that counts status changes sees every unit as changed at the walk: nothing is old enough", async () => {
    const res = await run(
      job({ recipe: "claude-code-sessions", params: { olderThanDays: 30 }, countStatusChanges: true }),
    );
    expect(res.units).toEqual([]);
    const fresh = await run(
      job({ recipe: "claude-code-sessions", params: { keepNewest: 0 }, countStatusChanges: true }),
    );
    expect(fresh.units).toEqual([]);
    expect(fresh.skipped.length).toBeGreaterThan(0);
    expect(fresh.skipped.every((s) => s.reason === "recent")).toBe(true);
  });

  it("a status change between planning and acting (mtime untouched) skips the unit as changed", async () => {
    const s6 = path.join(home, `${P}/${SESSION(6)}/tool-results/r1.txt`);
    const s5 = path.join(home, `${P}/${SESSION(5)}.jsonl`);
    const res = await run(job({ recipe: "claude-code-sessions", params: { olderThanDays: 30 } }), {
      afterPlan: () => {
        fs.chmodSync(s6, 0o600); // what a chown, chmod or new hard link does: only the ctime moves
        // rewritten with the same size and its old mtime put back: only the ctime tells
        const st = fs.statSync(s5);
        fs.writeFileSync(s5, Buffer.alloc(st.size, 1));
        fs.utimesSync(s5, st.atime, st.mtime);
      },
    });
    expect(res.skipped).toContainEqual(
      expect.objectContaining({ path: `${P}/${SESSION(6)}.jsonl`, reason: "changed" }),
    );
    expect(res.skipped).toContainEqual(
      expect.objectContaining({ path: `${P}/${SESSION(5)}.jsonl`, reason: "changed" }),
    );
    expect(res.units.map((u) => u.path)).toEqual([50, 4].map((n) => `${P}/${SESSION(n)}.jsonl`));
    for (const e of [...sessionEntries(5), ...sessionEntries(6)])
      expect(fs.existsSync(path.join(home, e)), e).toBe(true);
  });
});

describe("what stays", () => {
  it("a file swapped for a link between planning and acting is not followed, its unit is skipped as changed", async () => {
    const target = path.join(outside, "precious.txt");
    const res = await run(job({ recipe: "claude-code-debug" }), {
      afterPlan: () => {
        fs.rmSync(path.join(home, ".claude/debug/d3.txt"));
        fs.symlinkSync(target, path.join(home, ".claude/debug/d3.txt"));
        fs.rmSync(path.join(home, `${P}/${SESSION(4)}/tool-results/r1.txt`)); // not this job's recipe: untouched anyway
      },
    });
    expect(res.skipped).toContainEqual(expect.objectContaining({ path: ".claude/debug/d3.txt", reason: "changed" }));
    expect(fs.lstatSync(path.join(home, ".claude/debug/d3.txt")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, "utf8")).toBe("keep me");
    expect(res.units.map((u) => u.path).sort()).toEqual([
      ".claude/debug/d2.txt",
      ".claude/debug/d4.txt",
      ".claude/debug/outside-link",
    ]);
  });

  it("a unit with a file a process holds open is skipped, and so is a unit with one fresh file", async () => {
    const held = path.join(home, `${P}/${SESSION(6)}/tool-results/r1.txt`);
    const fd = fs.openSync(held, "r");
    const child = spawn("sleep", ["30"], { stdio: ["ignore", fd, "ignore"] });
    fs.closeSync(fd);
    put(home, `${P}/${SESSION(4)}/subagents/agent-2.jsonl`, 100, 0.01, nowSec); // 15 minutes old
    age(path.join(home, `${P}/${SESSION(4)}/subagents`), 0.01, nowSec); // written into now: as old as the file
    try {
      await new Promise((r) => setTimeout(r, 100));
      const res = await run(job({ recipe: "claude-code-sessions", params: { olderThanDays: 0 } }));
      expect(res.skipped).toContainEqual(expect.objectContaining({ path: `${P}/${SESSION(6)}.jsonl`, reason: "open" }));
      expect(res.skipped).toContainEqual(
        expect.objectContaining({ path: `${P}/${SESSION(4)}.jsonl`, reason: "recent" }),
      );
      for (const n of [4, 6])
        for (const e of sessionEntries(n)) expect(fs.existsSync(path.join(home, e)), e).toBe(true);
      expect(fs.existsSync(path.join(home, `${P}/${SESSION(5)}.jsonl`))).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("keep-newest N and the job's caps are exact; protected units are skipped", async () => {
    fs.mkdirSync(path.dirname(path.join(home, PROTECT_FILE)), { recursive: true });
    fs.writeFileSync(
      path.join(home, PROTECT_FILE),
      `# keep this one\n${P}/${SESSION(3)}.jsonl\n.claude/debug/d4.txt\n`,
    );
    const kept = await run(job({ recipe: "claude-code-sessions", params: { keepNewest: 3 }, minAgeHours: 1 }));
    // newest first: 1 (2 d), 2 (10 d), 3 (20 d) kept; 4, 50, 5, 6 go; 3 is also protected but kept first
    expect(kept.skipped.filter((s) => s.reason === "kept").map((s) => s.path)).toEqual(
      [1, 2, 3].map((n) => `${P}/${SESSION(n)}.jsonl`),
    );
    expect(kept.units.map((u) => u.path)).toEqual([6, 5, 50, 4].map((n) => `${P}/${SESSION(n)}.jsonl`));

    const capped = await run(
      job({
        recipe: "claude-code-debug",
        params: { olderThanDays: 0 },
        limits: { maxUnits: 2, maxBytes: 2 ** 40, errorPct: 20, minErrors: 5 },
      }),
    );
    expect(capped.skipped).toContainEqual(
      expect.objectContaining({ path: ".claude/debug/d4.txt", reason: "protected" }),
    );
    expect(capped.units.map((u) => u.path)).toEqual([".claude/debug/outside-link", ".claude/debug/d3.txt"]);
    expect(capped.skipped.filter((s) => s.reason === "limit").map((s) => s.path)).toEqual([
      ".claude/debug/d2.txt",
      ".claude/debug/d1.txt",
      ".claude/debug/d0.txt",
    ]);
    expect(fs.existsSync(path.join(home, ".claude/debug/d4.txt"))).toBe(true);
    expect(DEBUG_AGES).toHaveLength(5);
  });

  it("capBytes removes oldest first until the recipe's units fit", async () => {
    const sizes = new Map<number, number>();
    const dry = await run(
      job({ recipe: "claude-code-sessions", params: { olderThanDays: 0 }, dryRun: true, minAgeHours: 1 }),
    );
    for (const u of dry.units) sizes.set(Number(u.path.match(/(\d+)-aaaa/)![1]), u.bytes);
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const cap = total - sizes.get(6)! - 1; // just over one unit too much: the two oldest go
    const res = await run(job({ recipe: "claude-code-sessions", params: { capBytes: cap }, minAgeHours: 1 }));
    expect(res.units.map((u) => u.path)).toEqual([6, 5].map((n) => `${P}/${SESSION(n)}.jsonl`));
    expect(CLAUDE_SESSION_AGES).toHaveLength(6);
  });
});

describe("custom rules and refusals", () => {
  it("a custom file rule never takes a database part, nor anything of the reporter's own folder", async () => {
    fs.mkdirSync(path.join(home, ".coder-modules/coder/storage-reporter"), { recursive: true });
    fs.writeFileSync(path.join(home, ".coder-modules/coder/storage-reporter/token"), "tok");
    const before = snapshot(home);
    const res = await run(
      job({ custom: { rootKey: "copilot:data", glob: "**", unit: "file" }, params: { olderThanDays: 7 } }),
    );
    const { gone } = diff(before, snapshot(home));
    // session.db and its -wal stay
    expect(gone).toEqual([
      ".copilot/pkg/universal/1.0.31/index.js",
      ".copilot/pkg/universal/1.0.34/index.js",
      ".copilot/session-state/cs40/events.jsonl",
    ]);
    expect(res.units).toHaveLength(3);
    const own = await run(
      job({ custom: { rootKey: "coder/storage-reporter", glob: "**", unit: "file" }, params: { olderThanDays: 0 } }),
    );
    expect(own.units).toEqual([]);
    expect(fs.readFileSync(path.join(home, ".coder-modules/coder/storage-reporter/token"), "utf8")).toBe("tok");
  });

  it("refuses custom targets that try to leave their root, and never reaches through a link", async () => {
    const outsideBefore = snapshot(outside);
    const before = snapshot(home);
    for (const glob of [
      "../*",
      "../../outside/*",
      "/etc/*",
      "debug/../../..",
      "**/../*",
      "debug/\0x",
      "./debug/*",
      "debug//*",
    ]) {
      const res = await run(
        job({ custom: { rootKey: "claude-code:data", glob, unit: "file" }, params: { olderThanDays: 0 } }),
      );
      expect(res.status, glob).toBe("failed");
      expect(res.units, glob).toEqual([]);
    }
    expect(diff(before, snapshot(home))).toEqual({ gone: [], added: [] });
    // Globs that match the links leading out of the home: at most the link goes, never what it points at.
    for (const [glob, unit] of [
      ["debug/*", "file"],
      ["file-history/*/*", "file"],
      ["file-history/*", "dir"],
    ] as const) {
      await run(
        job({ custom: { rootKey: "claude-code:data", glob, unit }, params: { olderThanDays: 0 }, minAgeHours: 1 }),
      );
    }
    expect(snapshot(outside)).toEqual(outsideBefore);
  });

  it("refuses folder units without a fixed depth, and script data when the current folder is unknown", async () => {
    const deep = await run(job({ custom: { rootKey: "claude-code:data", glob: "projects/**", unit: "dir" } }));
    expect(deep.status).toBe("failed");
    expect(deep.errors[0].message).toMatch(/fixed depth/);
    const before = snapshot(home);
    const res = await run(job({ recipe: "orphaned-script-data" }), { env: { HOME: home } });
    expect(res.errors[0].message).toMatch(/CODER_SCRIPT_DATA_DIR is not set/);
    expect(diff(before, snapshot(home))).toEqual({ gone: [], added: [] });
  });

  it("stops on a rising error rate", async () => {
    // every move into the trash fails: a file sits where the job's trash needs a folder
    const res = await run(
      job({
        id: "job-err",
        recipe: "claude-code-debug",
        params: { olderThanDays: 0 },
        minAgeHours: 1,
        limits: { maxUnits: 100, maxBytes: 2 ** 40, errorPct: 50, minErrors: 2 },
      }),
      {
        afterPlan: () => {
          fs.mkdirSync(path.join(home, TRASH_DIR, "job-err"), { recursive: true });
          fs.writeFileSync(path.join(home, TRASH_DIR, "job-err/.claude"), "in the way");
        },
      },
    );
    expect(res.errors).toHaveLength(2);
    expect(res.skipped.filter((s) => s.reason === "error-rate")).toHaveLength(4);
    expect(res.status).toBe("failed");
    for (const i of [0, 1, 2, 3, 4]) expect(fs.existsSync(path.join(home, `.claude/debug/d${i}.txt`))).toBe(true);
  });
});
