// The agents' folders as their own sources and trackers describe them in 2026, scanned as a workspace would be:
// each root under its agent, each file in its category, each session unit whole, and each folder found where
// its variable moves it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageRoot } from "@/lib/report-format/schema";
import { write } from "@/tests/support/reporter";
import { discoverRoots } from "./roots";
import { scanRoots } from "./scan-roots";

const NOW = Math.floor(Date.now() / 1000);
const S = "0b6a2f4e-1111-4c3a-9d1e-2f0a9b8c7d61";
let tmp: string;
let home: string;

/** Files relative to home, each 1 KiB (4 KiB of blocks at most), grouped by the category they must land in. */
const TREE: Record<string, string[]> = {
  logs: [
    ".cache/claude-cli-nodejs/-work-app/mcp-logs-github/2026-11-25T10-00-00-000Z.jsonl",
    ".cache/claude-cli-nodejs/-work-app/mcp-logs-ide/2026-11-20T10-00-00-000Z.jsonl",
    ".codex/log/codex-tui.log",
    `.gemini/tmp/9f86d081/logs/session-${S}.jsonl`,
    ".gemini/tmp/9f86d081/logs.json",
    ".cache/amp/logs/cli.log",
  ],
  databases: [
    ".codex/logs_2.sqlite",
    ".codex/logs_2.sqlite-wal",
    ".codex/state_5.sqlite",
    ".local/share/opencode/opencode.db",
    ".local/share/opencode/opencode.db-wal",
    ".local/share/kiro-cli/data.sqlite3",
  ],
  sessions: [
    ".codex/archived_sessions/rollout-2026-09-01T10-00-00-9f8e.jsonl",
    `.gemini/tmp/9f86d081/chats/session-2026-11-20T10-00-0b6a2f4e.jsonl`,
    `.gemini/tmp/9f86d081/chats/${S}/agent-1.jsonl`, // a subagent folder
    `.gemini/tmp/9f86d081/tool-outputs/session-${S}/out-1.txt`,
    ".local/share/opencode/storage/session/global/ses_1.json", // the legacy JSON tree
    `.cursor/projects/-work-app/agent-transcripts/${S}/transcript.jsonl`,
    ".cursor/chats/h1/c1/store.json",
    `.kiro/sessions/cli/${S}.jsonl`,
    `.kiro/sessions/cli/${S}.json`,
    `.kiro/sessions/cli/${S}.lock`,
    ".kiro/sessions/a1b2/sess_01/events.jsonl",
    `.local/share/amp/threads/T-${S}.json`,
    `.pi/agent/sessions/--work-app--/2026-11-20T10-00-00-000Z_${S}.jsonl`,
    ".cline/data/sessions/s1/messages.json",
    ".qwen/projects/-work-app/chats/c1.jsonl",
    ".mux/sessions/ws-1/chat.jsonl",
  ],
  caches: [
    ".local/share/claude/versions/2.1.205",
    ".local/share/claude/versions/2.1.207",
    ".codex/packages/standalone/releases/0.149.1-x86_64-unknown-linux-musl/bin/codex",
    ".copilot/pkg/universal/1.0.34/index.js",
    ".local/share/opencode/snapshot/4b825dc6/HEAD",
    ".gemini/tmp/9f86d081/shell_history",
  ],
  other: [".config/amp/settings.json", ".mux/src/app/main/README.md"],
};

/** Where each root must be found, and whose it is. */
const ROOTS: [key: string, rel: string, agent: string][] = [
  ["claude-code:mcp-logs", ".cache/claude-cli-nodejs", "claude-code"],
  ["claude-code:versions", ".local/share/claude/versions", "claude-code"],
  ["codex:data", ".codex", "codex"],
  ["gemini:data", ".gemini", "gemini"],
  ["opencode:data", ".local/share/opencode", "opencode"],
  ["copilot:data", ".copilot", "copilot"],
  ["kiro:data", ".kiro", "kiro"],
  ["kiro:cli", ".local/share/kiro-cli", "kiro"],
  ["cursor:data", ".cursor", "cursor"],
  ["amp:data", ".local/share/amp", "amp"],
  ["amp:logs", ".cache/amp", "amp"],
  ["pi:data", ".pi/agent", "pi"],
  ["cline:data", ".cline", "cline"],
  ["qwen:data", ".qwen", "qwen"],
  ["mux:data", ".mux", "mux"],
  ["coder/agent-relay-claude-code", ".coder-modules/coder/agent-relay-claude-code", "claude-code"],
  ["coder/agent-relay-cursor", ".coder-modules/coder/agent-relay-cursor", "cursor"],
];

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-trees-")));
  home = path.join(tmp, "home");
  for (const rel of Object.values(TREE).flat()) write(path.join(home, rel), 1024, 10, NOW);
  write(path.join(home, ".coder-modules/coder/agent-relay-claude-code/logs/relay.log"), 1024, 10, NOW);
  write(path.join(home, ".coder-modules/coder/agent-relay-cursor/logs/relay.log"), 1024, 10, NOW);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function scan(env: Record<string, string> = {}): Promise<Map<string, StorageRoot>> {
  const specs = discoverRoots({ home, env });
  const r = await scanRoots(specs, NOW, { home });
  return new Map(r.roots.map((x) => [x.key, x]));
}

describe("the agents' folders of 2026", () => {
  it("finds each root under its agent, and none for Amp's settings", async () => {
    const roots = await scan();
    for (const [key, rel, agent] of ROOTS) {
      expect(roots.get(key)?.path, key).toBe(rel);
      expect(roots.get(key)?.agent, key).toBe(agent);
    }
    expect([...roots.values()].some((r) => r.path === ".config/amp")).toBe(false);
  });

  it("puts every file in its category", async () => {
    const roots = [...(await scan()).values()].filter((r) => r.kind === "tool");
    for (const [category, files] of Object.entries(TREE)) {
      if (category === "other") continue; // .config/amp is no root; .mux/src is checked below
      const counted = roots.reduce((s, r) => s + (r.categories?.[category as "logs"]?.files ?? 0), 0);
      expect(counted, category).toBe(files.length);
    }
    const mux = (await scan()).get("mux:data")!;
    expect(mux.categories?.other?.files).toBe(1); // its worktrees are project files, not the agent's data
  });

  it("counts a session as its agent keeps it: Kiro v3 and Cursor transcripts as folders, Kiro 2.x by its .jsonl", async () => {
    const roots = await scan();
    const sessions = (key: string) =>
      (roots.get(key)?.largest ?? []).filter((e) => e.type === "session").map((e) => e.path);
    expect(sessions("kiro:data").sort()).toEqual([`sessions/a1b2/sess_01`, `sessions/cli/${S}.jsonl`]);
    expect(sessions("cursor:data").sort()).toEqual([`chats/h1/c1`, `projects/-work-app/agent-transcripts/${S}`]);
    expect(sessions("mux:data")).toEqual(["sessions/ws-1"]);
    expect(sessions("qwen:data")).toEqual(["projects/-work-app/chats/c1.jsonl"]);
    expect(sessions("amp:data")).toEqual([`threads/T-${S}.json`]);
  });

  it("follows the variables that move the folders", async () => {
    const moved = (rel: string) => path.join(tmp, "home", rel);
    write(moved("alt/xdg-data/opencode/opencode.db"), 1024, 1, NOW);
    write(moved("alt/xdg-cache/claude-cli-nodejs/-w/mcp-logs-x/a.jsonl"), 1024, 1, NOW);
    write(moved("alt/gemini-home/.gemini/tmp/p/logs/session-1.jsonl"), 1024, 1, NOW);
    write(moved("alt/codex-db/state_5.sqlite"), 1024, 1, NOW);
    write(moved("alt/oc.db"), 1024, 1, NOW);
    write(moved("alt/kiro/sessions/cli/x.jsonl"), 1024, 1, NOW);
    const roots = await scan({
      XDG_DATA_HOME: moved("alt/xdg-data"),
      XDG_CACHE_HOME: "alt/xdg-cache", // relative to home
      GEMINI_CLI_HOME: moved("alt/gemini-home"),
      CODEX_SQLITE_HOME: moved("alt/codex-db"),
      OPENCODE_DB: moved("alt/oc.db"),
      KIRO_HOME: moved("alt/kiro"),
    });
    expect(roots.get("opencode:data")?.path).toBe("alt/xdg-data/opencode");
    expect(roots.get("claude-code:mcp-logs")?.path).toBe("alt/xdg-cache/claude-cli-nodejs");
    expect(roots.get("claude-code:mcp-logs")?.categories?.logs?.files).toBe(1);
    expect(roots.get("gemini:data")?.path).toBe("alt/gemini-home/.gemini");
    expect(roots.get("gemini:data")?.categories?.logs?.files).toBe(1);
    expect(roots.get("codex:sqlite")).toMatchObject({ path: "alt/codex-db", agent: "codex" });
    expect(roots.get("opencode:db")).toMatchObject({ path: "alt/oc.db", agent: "opencode" });
    expect(roots.get("kiro:data")?.path).toBe("alt/kiro");
    // a variable-only folder is no root where its variable is unset
    expect((await scan()).has("codex:sqlite")).toBe(false);
  });
});
