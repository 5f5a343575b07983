// The demo fleet's cast: owners, templates and projects its workspaces are named from, and the folders each
// agent fills, with how fast and with what.
import { claudeExtras } from "./agent-extras";
import type { Random } from "./random";
import { MiB, type RootProfile } from "./roots";

export const GiB = 1024 * MiB;

export const OWNERS = [
  "alice",
  "bob",
  "carol",
  "dave",
  "erin",
  "frank",
  "grace",
  "heidi",
  "ivan",
  "judy",
  "mallory",
  "niaj",
  "olivia",
  "peggy",
  "rupert",
  "sybil",
  "trent",
  "victor",
  "walter",
  "yara",
];
export const TEMPLATES = ["ai-dev", "docker-claude", "kubernetes-agents", "gpu-ml", "minimal"];
export const PROJECTS = ["api", "web", "infra", "billing", "search", "mobile", "ml", "docs"];

export function agentProfiles(rnd: Random, heavy: number): RootProfile[] {
  const roots: RootProfile[] = [];
  if (rnd.chance(0.85)) {
    const debugHeavy = rnd.chance(0.15);
    roots.push(
      {
        key: "claude-code:data",
        kind: "tool",
        agent: "claude-code",
        path: ".claude",
        dailyBytes: 25 * MiB * heavy,
        fileBytes: 400 * 1024,
        cleanupChance: 0.015,
        mix: debugHeavy ? { sessions: 0.3, logs: 0.55, other: 0.15 } : { sessions: 0.7, logs: 0.15, other: 0.15 },
      },
      {
        key: "coder/claude-code",
        kind: "module",
        agent: "claude-code",
        path: ".coder-modules/coder/claude-code",
        dailyBytes: 0.6 * MiB,
        fileBytes: 64 * 1024,
        mix: { logs: 0.8, other: 0.2 },
      },
    );
    // AgentAPI's state file, left in the module folder after the modules dropped AgentAPI.
    if (rnd.chance(0.1))
      roots[roots.length - 1].leftovers = [{ path: "agentapi-state.json", bytes: 40 * 1024, apparentBytes: 38_912 }];
    if (rnd.chance(0.2)) {
      roots.push({
        key: "legacy:claude-module",
        kind: "legacy",
        agent: "claude-code",
        path: ".claude-module",
        dailyBytes: 3 * MiB,
        fileBytes: 128 * 1024,
        mix: { logs: 0.7, other: 0.3 },
        growthDays: rnd.int(5, 20),
      });
    }
    roots.push(...claudeExtras(rnd, heavy));
  }
  if (rnd.chance(0.45)) {
    roots.push({
      key: "codex:data",
      kind: "tool",
      agent: "codex",
      path: ".codex",
      dailyBytes: 30 * MiB * heavy,
      fileBytes: 2 * MiB,
      burstChance: 0.03,
      burstBytes: 1.5 * GiB,
      mix: { sessions: 0.86, caches: 0.04, databases: 0.05, logs: 0.05 },
    });
  }
  if (rnd.chance(0.5)) {
    roots.push({
      key: "gemini:data",
      kind: "tool",
      agent: "gemini",
      path: ".gemini",
      dailyBytes: 4 * MiB * heavy,
      fileBytes: 1 * MiB,
      burstChance: 0.06,
      burstBytes: 420 * MiB,
      cleanupChance: 0.02,
      mix: { sessions: 0.9, other: 0.1 },
    });
  }
  if (rnd.chance(0.3)) {
    roots.push({
      key: "goose:data",
      kind: "tool",
      agent: "goose",
      path: ".local/share/goose",
      dailyBytes: 6 * MiB,
      fileBytes: 8 * MiB,
      mix: { databases: 0.95, logs: 0.05 },
    });
  }
  if (rnd.chance(0.25)) {
    roots.push({
      key: "opencode:data",
      kind: "tool",
      agent: "opencode",
      path: ".local/share/opencode",
      dailyBytes: 20 * MiB * heavy,
      fileBytes: 256 * 1024,
      mix: { caches: 0.6, logs: 0.25, databases: 0.15 },
    });
  }
  if (rnd.chance(0.25)) {
    roots.push({
      key: "copilot:data",
      kind: "tool",
      agent: "copilot",
      path: ".copilot",
      dailyBytes: 5 * MiB,
      fileBytes: 2 * MiB,
      mix: { sessions: 0.8, caches: 0.05, databases: 0.15 },
    });
  }
  if (rnd.chance(0.1)) {
    // Cursor CLI keeps each chat in a folder of its own (chats/<hash>/<chat-id>/store.db): the catalog counts
    // chats/** as sessions, and the cursor-chats recipe's units are those folders.
    roots.push({
      key: "cursor:data",
      kind: "tool",
      agent: "cursor",
      path: ".cursor",
      dailyBytes: 3 * MiB,
      fileBytes: 4 * MiB,
      mix: { sessions: 1 },
    });
  }
  return roots;
}

export function scriptData(rnd: Random, orphaned: boolean): RootProfile {
  const id = rnd.uuid();
  return {
    key: `script-data:${id}`,
    kind: "script-data",
    agent: "other",
    path: `.coder/coder-script-data/${id}`,
    dailyBytes: 2 * MiB,
    fileBytes: 256 * 1024,
    mix: { caches: 0.8, logs: 0.2 },
    orphaned,
    growthDays: 3,
  };
}
