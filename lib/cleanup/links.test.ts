import { describe, expect, it } from "vitest";
import { newRunHref, recipeForFinding, recipesForAgent } from "./links";

describe("cleanup links", () => {
  it("maps findings to the recipe that fixes them", () => {
    expect(recipeForFinding({ ruleId: "orphaned-script-data" })).toBe("orphaned-script-data");
    expect(recipeForFinding({ ruleId: "agentapi-leftover", agent: "claude-code" })).toBe("agentapi-leftovers");
    expect(recipeForFinding({ ruleId: "claude-debug-history", agent: "claude-code" })).toBe("claude-code-debug");
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "claude-code", rootKey: "claude-code:data" })).toBe(
      "claude-code-sessions",
    );
    expect(recipeForFinding({ ruleId: "large-session", agent: "codex", rootKey: "codex:data" })).toBe("codex-rollouts");
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "gemini", rootKey: "gemini:data" })).toBe("gemini-chats");
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "claude-code", rootKey: "coder/claude-code" })).toBe(
      "module-logs",
    );
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "goose", rootKey: "goose:data" })).toBeNull();
    // a root of the agent's own besides its data: the recipe that acts on that root, or none
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "claude-code", rootKey: "claude-code:mcp-logs" })).toBe(
      "claude-code-mcp-logs",
    );
    expect(recipeForFinding({ ruleId: "root-oversize", agent: "claude-code", rootKey: "claude-code:versions" })).toBe(
      "claude-code-versions",
    );
    expect(
      recipeForFinding({ ruleId: "root-oversize", agent: "claude-code", rootKey: "claude-code:config" }),
    ).toBeNull();
    expect(recipeForFinding({ ruleId: "volume-full" })).toBeNull();
  });
  it("finds the recipes of an agent", () => {
    expect(recipesForAgent("codex")).toEqual(["codex-rollouts", "codex-archived-sessions", "codex-releases"]);
  });
  it("builds the new-run form's URL", () => {
    expect(newRunHref({ recipe: "codex-rollouts", workspace: "w 1" })).toBe(
      "/cleanup/new?recipe=codex-rollouts&workspace=w+1",
    );
    expect(newRunHref({})).toBe("/cleanup/new");
  });
});
