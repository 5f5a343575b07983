import { describe, expect, it } from "vitest";
import { AGENT_COLORS, agentColor, rootColors, shade } from "./palette";

describe("palette", () => {
  it("gives known agents their color and unknown ones a color picked by name, not one for all", () => {
    expect(agentColor("claude-code")).toBe(AGENT_COLORS["claude-code"]);
    const unknown = ["aider", "cline", "roo", "continue", "amp", "crush"].map(agentColor);
    for (const c of unknown) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(unknown).size).toBeGreaterThan(1);
  });
  it("shades colors", () => {
    expect(shade("#000000", 1)).toBe("#ffffff");
    expect(shade("#ffffff", -1)).toBe("#000000");
    expect(shade("#808080", 0)).toBe("#808080");
  });
  it("keeps roots of one agent in its hue but distinct", () => {
    const c = rootColors([
      { key: "claude-code:data", agent: "claude-code" },
      { key: "coder/claude-code", agent: "claude-code" },
      { key: "codex:data", agent: "codex" },
    ]);
    expect(c.get("claude-code:data")).toBe(AGENT_COLORS["claude-code"]);
    expect(c.get("coder/claude-code")).not.toBe(AGENT_COLORS["claude-code"]);
    expect(c.get("codex:data")).toBe(AGENT_COLORS.codex);
    // the nine package caches of one home: nine colors
    const caches = rootColors(Array.from({ length: 9 }, (_, i) => ({ key: `cache:${i}`, agent: "package-cache" })));
    expect(new Set(caches.values()).size).toBe(9);
  });
  it("keeps every two agents' colors apart", () => {
    const rgb = (h: string) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
    const agents = Object.entries(AGENT_COLORS).filter(
      ([k]) => !["modules", "script-data", "orphaned-script-data", "leftover", "main", "other"].includes(k),
    );
    for (const [i, [a, ca]] of agents.entries()) {
      for (const [b, cb] of agents.slice(i + 1)) {
        const d = Math.hypot(...rgb(ca).map((x, k) => x - rgb(cb)[k]));
        // Gemini and Copilot, Codex and Cursor were 45 apart.
        expect(d, `${a} and ${b}`).toBeGreaterThan(55);
      }
    }
  });
});
