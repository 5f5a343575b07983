import { describe, expect, it } from "vitest";
import { RECIPES } from "@/lib/catalog/recipes";
import { freeSpaceHref, freeSpaceLabel, freeSpaceRows, offersFreeSpace } from "./free-space";
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
});
