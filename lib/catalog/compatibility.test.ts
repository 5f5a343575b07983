import { describe, expect, it } from "vitest";
import { AGENTS } from "./agents";
import { COMPATIBILITY, compatibilityOf } from "./compatibility";

describe("the compatibility matrix", () => {
  it("is keyed by the catalog's agent ids", () => {
    const ids = AGENTS.map((a) => a.id);
    for (const id of Object.keys(COMPATIBILITY)) expect(ids, id).toContain(id);
  });

  it("says which agents resume, from which module version, and the space they need", () => {
    expect(compatibilityOf("claude-code")).toMatchObject({ support: "full", minVersion: "4.8.0", minStorageMb: 100 });
    expect(compatibilityOf("codex")).toMatchObject({ support: "full", minVersion: "4.2.0", minStorageMb: 100 });
    expect(compatibilityOf("gemini")).toMatchObject({ support: "planned", minStorageMb: 200 });
    expect(compatibilityOf("aider")?.support).toBe("none");
    expect(compatibilityOf("kiro")).toBeNull();
  });
});
