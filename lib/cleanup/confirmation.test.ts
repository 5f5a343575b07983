import { describe, expect, it } from "vitest";
import { changesConfirmed, isRunaway, movedSince } from "./confirmation";

describe("confirmation", () => {
  it("a preview within 10 % of the confirmed figure still stands; beyond it, it moved", () => {
    expect(movedSince(1100, 1000)).toBe(false);
    expect(movedSince(1101, 1000)).toBe(true);
    expect(movedSince(899, 1000)).toBe(true);
    expect(movedSince(1, 0)).toBe(true);
  });

  it("a scheduled preview more than twice the confirmed bytes or workspaces is a runaway", () => {
    expect(isRunaway({ bytes: 2000, workspaces: 10 }, { bytes: 1000, workspaces: 5 })).toBe(false);
    expect(isRunaway({ bytes: 2001, workspaces: 10 }, { bytes: 1000, workspaces: 5 })).toBe(true);
    expect(isRunaway({ bytes: 500, workspaces: 11 }, { bytes: 1000, workspaces: 5 })).toBe(true);
  });

  it("what it removes or how asks for a new confirmation; its name and schedule do not", () => {
    const p = {
      name: "a",
      schedule: "weekly",
      params: { olderThanDays: 30 },
      scope: { all: true },
      action: "trash",
      recipe: "x",
    };
    expect(changesConfirmed(p, { ...p, name: "b", schedule: "daily" })).toBe(false);
    expect(changesConfirmed(p, { ...p, params: { olderThanDays: 7 } })).toBe(true);
    expect(changesConfirmed(p, { ...p, scope: { owners: ["al"] } })).toBe(true);
    expect(changesConfirmed(p, { ...p, action: "delete" })).toBe(true);
    expect(changesConfirmed(p, { ...p, countStatusChanges: true })).toBe(true);
    expect(changesConfirmed({ ...p, countStatusChanges: false }, { ...p, countStatusChanges: false })).toBe(false);
  });
});
