import { describe, expect, it } from "vitest";
import { RECIPES } from "@/lib/catalog/recipes";
import {
  freeSpaceHref,
  freeSpaceLabel,
  freeSpaceRows,
  goesForGoodText,
  isEmergency,
  offersFreeSpace,
  pickedFreedText,
  runAs,
} from "./free-space";
import { runRequest } from "./protocol";
import { parseNewRunSearchParams } from "@/lib/validations/cleanup";

describe("free space here", () => {
  it("is offered by the findings of a full volume only", () => {
    expect(offersFreeSpace("volume-full")).toBe(true);
    expect(offersFreeSpace("inodes-full")).toBe(true);
    expect(offersFreeSpace("volume-filling")).toBe(false);
  });

  it("opens the new-run page in its free-space mode for the workspace", () => {
    const href = freeSpaceHref("a b");
    expect(href).toBe("/cleanup/new?workspace=a+b&free=1");
    expect(parseNewRunSearchParams(new URLSearchParams(href.split("?")[1]))).toEqual({ workspace: "a b", free: true });
  });

  it("previews every recipe on that workspace only, with its defaults and with everything past the minimum age", () => {
    const rows = freeSpaceRows("ws-1");
    expect(rows.map((r) => r.recipe.id)).toEqual(RECIPES.map((r) => r.id));
    for (const { recipe, runs } of rows) {
      expect(runRequest.safeParse(runs.defaults).success).toBe(true);
      expect(runs.defaults).toMatchObject({
        recipe: recipe.id,
        params: { olderThanDays: recipe.defaultOlderThanDays },
        scope: { workspaceIds: ["ws-1"] },
        dryRun: false,
      });
      expect(runs.minimum).toMatchObject({
        recipe: recipe.id,
        params: { olderThanDays: 0 },
        minAgeHours: 24,
        scope: { workspaceIds: ["ws-1"] },
      });
    }
  });

  it("states the figure of the runs picked on the button, per action", () => {
    expect(freeSpaceLabel([], "yara/dev")).toBe("Pick what to free");
    expect(freeSpaceLabel([{ action: "delete", bytes: 3 * 1024 ** 3 }], "yara/dev")).toBe("Delete 3 GiB on yara/dev");
    expect(
      freeSpaceLabel(
        [
          { action: "trash", bytes: 1024 ** 3 },
          { action: "delete", bytes: 1024 ** 2 },
          { action: "trash", bytes: 1024 ** 3 },
        ],
        "yara/dev",
      ),
    ).toBe("Trash 2 GiB and delete 1 MiB on yara/dev (3 runs)");
  });

  it("offers what frees space now from 95 % used, and then deletes instead of trashing", () => {
    expect(isEmergency(95)).toBe(true);
    expect(isEmergency(94)).toBe(false);
    expect(isEmergency(null)).toBe(false);
    const rows = freeSpaceRows("ws-1");
    const sessions = rows.find((r) => r.recipe.id === "claude-code-sessions")!.runs.defaults;
    const debug = rows.find((r) => r.recipe.id === "claude-code-debug")!.runs.defaults;
    expect(sessions.action).toBe("trash");
    expect(runAs(sessions, false)).toBe(sessions);
    expect(runAs(sessions, true)).toEqual({ ...sessions, action: "delete" });
    expect(runRequest.safeParse(runAs(sessions, true)).success).toBe(true);
    expect(runAs(debug, true)).toBe(debug);
  });

  it("says when the runs picked free their space, and names what a delete removes for good", () => {
    const sessions = { title: "Claude Code sessions", trashDays: 7, bytes: 2 * 1024 ** 3, units: "40 units" };
    const debug = {
      title: "Claude Code debug logs",
      action: "delete" as const,
      trashDays: 7,
      bytes: 1024 ** 2,
      units: "3 units",
    };
    const trashed = { ...sessions, action: "trash" as const };
    expect(pickedFreedText([trashed, debug])).toBe("Frees 1 MiB now and 2 GiB in 7 days, once the trash expires.");
    expect(pickedFreedText([trashed])).toBe("Frees 2 GiB in 7 days, once the trash expires.");
    expect(goesForGoodText([trashed])).toBeNull();
    const deleted = { ...sessions, action: "delete" as const };
    expect(pickedFreedText([deleted, debug])).toBe("Frees 2 GiB now.");
    expect(goesForGoodText([deleted, debug])).toBe(
      "Deleted for good, without the trash; this cannot be undone: Claude Code sessions (2 GiB, 40 units), " +
        "Claude Code debug logs (1 MiB, 3 units).",
    );
  });
});
