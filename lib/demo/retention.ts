// The demo fleet's agent settings: what admins and users set in real templates, so that the pages and the
// agent-retention finding show each case (managed settings, a longer retention, none, an unreadable file).
import type { AgentRetention } from "@/lib/report-format/schema";
import type { Random } from "./random";

/** One workspace's settings; its template decides the managed ones, its owner's habits the rest. */
export function demoRetention(rnd: Random, template: string | undefined): AgentRetention {
  const claude: AgentRetention["claude-code"] =
    template === "kubernetes-agents"
      ? { state: "set", source: "/etc/claude-code/managed-settings.d/10-coder.json", cleanupPeriodDays: 14 }
      : rnd.chance(0.3)
        ? { state: "set", source: ".claude/settings.json", cleanupPeriodDays: rnd.pick([60, 90, 90, 180, 365]) }
        : rnd.chance(0.05)
          ? { state: "unreadable", source: ".claude/settings.json", reason: "not valid JSON (at line 4, column 3)" }
          : { state: "absent" };
  const gemini: AgentRetention["gemini"] = rnd.chance(0.2)
    ? { state: "set", source: ".gemini/settings.json", enabled: false }
    : rnd.chance(0.2)
      ? { state: "set", source: ".gemini/settings.json", maxAge: rnd.pick(["7d", "90d", "3m"]), maxCount: 100 }
      : { state: "absent" };
  const codex: AgentRetention["codex"] = rnd.chance(0.4)
    ? { state: "set", source: ".codex/config.toml", historyMaxBytes: 10 * 1024 * 1024 }
    : { state: "absent" };
  const opencode: AgentRetention["opencode"] = rnd.chance(0.2)
    ? { state: "set", source: ".config/opencode/opencode.json", snapshot: false }
    : { state: "absent" };
  return { "claude-code": claude, gemini, codex, opencode };
}
