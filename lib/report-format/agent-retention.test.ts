import { describe, expect, it } from "vitest";
import { report } from "./schema";

// The report's agentRetention: optional (older reporters' reports stay valid), and only the retention keys:
// anything else a settings file holds is refused, so it can never be stored.

const BASE = {
  version: 1,
  id: "3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b",
  collectedAt: "2026-11-20T10:00:00.000Z",
  workspace: { id: "ws-1", name: "one", owner: "ann" },
  reporter: { version: "0.2.0", scanMs: 10 },
  roots: [],
};
const problems = (agentRetention: unknown) => {
  const r = report.safeParse({ ...BASE, agentRetention });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.code}`);
};

describe("agentRetention in a report", () => {
  it("is optional, and takes each agent's retention keys with its state", () => {
    expect(report.safeParse(BASE).success).toBe(true);
    expect(
      problems({
        "claude-code": {
          state: "set",
          source: "/etc/claude-code/managed-settings.d/10-coder.json",
          cleanupPeriodDays: 0,
        },
        gemini: { state: "set", enabled: true, maxAge: "12h", maxCount: 5, minRetention: "1d" },
        codex: { state: "unreadable", source: ".codex/config.toml", reason: "permission denied" },
        opencode: { state: "absent" },
      }),
    ).toEqual([]);
  });

  it("refuses other keys, other agents, unknown states and values the agents would refuse", () => {
    expect(problems({ "claude-code": { state: "set", cleanupPeriodDays: 30, apiKeyHelper: "/bin/key" } })).toEqual([
      "agentRetention.claude-code: unrecognized_keys",
    ]);
    expect(problems({ goose: { state: "absent" } })).toEqual(["agentRetention: unrecognized_keys"]);
    expect(problems({ codex: { state: "maybe" } })).toEqual(["agentRetention.codex.state: invalid_value"]);
    expect(problems({ gemini: { state: "set", maxAge: "30 days" } })).toEqual([
      "agentRetention.gemini.maxAge: invalid_format",
    ]);
    expect(problems({ "claude-code": { state: "set", cleanupPeriodDays: -1 } })).toEqual([
      "agentRetention.claude-code.cleanupPeriodDays: too_small",
    ]);
  });
});
