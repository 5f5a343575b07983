import { describe, expect, it } from "vitest";
import { RECIPES } from "@/lib/catalog/recipes";
import { outdatedUnitsReason } from "./reporter-units";

const gemini = RECIPES.find((r) => r.id === "gemini-chats")!;
const claude = RECIPES.find((r) => r.id === "claude-code-sessions")!;

describe("outdatedUnitsReason", () => {
  it("leaves out a Gemini figure from a reporter before 0.5.0, by release order, not string order", () => {
    expect(outdatedUnitsReason(gemini, "0.4.9")).toBe(
      "its reporter (0.4.9) counts Gemini sessions as chat files only; update it to 0.5.0 or later",
    );
    expect(outdatedUnitsReason(gemini, "0.5.0-rc.1")).toMatch(/^its reporter \(0\.5\.0-rc\.1\)/);
    expect(outdatedUnitsReason(gemini, "0.5.0")).toBeNull();
    expect(outdatedUnitsReason(gemini, "0.10.0")).toBeNull(); // "0.10.0" < "0.5.0" as strings
    expect(outdatedUnitsReason(gemini, "1.0.0")).toBeNull();
  });

  it("leaves out a version it cannot compare, and never touches recipes whose units did not change", () => {
    expect(outdatedUnitsReason(gemini, "dev")).toBe(
      "its reporter's version (dev) cannot be compared with 0.5.0; update it to 0.5.0 or later",
    );
    expect(outdatedUnitsReason(gemini, null)).toMatch(/\(unknown\) cannot be compared/);
    expect(outdatedUnitsReason(claude, "0.3.0")).toBeNull();
    expect(outdatedUnitsReason(null, "0.3.0")).toBeNull();
  });
});
