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
  });
});
