import { describe, expect, it } from "vitest";
import { freedOf, freedWhen, sumFreed } from "./freed";
import { reclaimableByAgent } from "./reclaimable";

describe("when a cleanup frees its space", () => {
  it("is now for a delete, once the trash expires for a trash", () => {
    expect(freedOf(100, "delete")).toEqual({ nowBytes: 100, laterBytes: 0, laterDays: 7 });
    expect(freedOf(100, "trash", 14)).toEqual({ nowBytes: 0, laterBytes: 100, laterDays: 14 });
    expect(freedWhen("delete")).toBe("now");
    expect(freedWhen("trash")).toBe("in 7 days");
    expect(freedWhen("trash", 1)).toBe("in 1 day");
  });

  it("sums figures, waiting as long as the longest trash", () => {
    expect(sumFreed([freedOf(1, "delete"), freedOf(2, "trash", 3), freedOf(4, "trash", 9)])).toEqual({
      nowBytes: 1,
      laterBytes: 6,
      laterDays: 9,
    });
    expect(sumFreed([freedOf(5, "delete", 30)])).toEqual({ nowBytes: 5, laterBytes: 0, laterDays: 7 });
  });

  it("gives each agent one figure: its recipes summed, largest agent and recipe first", () => {
    const recipe = (id: string, agent: string, bytes: number, action: "delete" | "trash") => ({
      id: id as never,
      agent,
      fleet: { bytes, estimate: false, ...freedOf(bytes, action) },
    });
    const agents = reclaimableByAgent([
      recipe("claude-code-debug", "claude-code", 10, "delete"),
      recipe("claude-code-sessions", "claude-code", 30, "trash"),
      recipe("codex-rollouts", "codex", 50, "trash"),
      recipe("cursor-chats", "cursor", 0, "trash"),
    ]);
    expect(agents).toEqual([
      { agent: "codex", nowBytes: 0, laterBytes: 50, laterDays: 7, estimate: false, recipes: ["codex-rollouts"] },
      {
        agent: "claude-code",
        nowBytes: 10,
        laterBytes: 30,
        laterDays: 7,
        estimate: false,
        recipes: ["claude-code-sessions", "claude-code-debug"],
      },
      { agent: "cursor", nowBytes: 0, laterBytes: 0, laterDays: 7, estimate: false, recipes: ["cursor-chats"] },
    ]);
  });
});
