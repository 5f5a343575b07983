import { describe, expect, it } from "vitest";
import { hasRole, safeNextPath } from "./auth";

describe("safeNextPath", () => {
  it("keeps paths on this site", () => {
    expect(safeNextPath("/workspaces?owner=erin#x")).toBe("/workspaces?owner=erin#x");
    expect(safeNextPath("/")).toBe("/");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "//evil.example",
      "https://evil.example/",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "/\t/evil.example",
      // normalised to //evil.example: the path that is used is checked, not only the input
      "/.//evil.example",
      "/..//evil.example",
      "/a/..//evil.example/x?y#z",
      "/%2e//evil.example",
      "",
      undefined,
      42,
    ]) {
      expect(safeNextPath(bad)).toBe("/");
    }
  });
});

describe("hasRole", () => {
  it("lets admins do what viewers do, not the reverse", () => {
    expect(hasRole("admin", "viewer")).toBe(true);
    expect(hasRole("viewer", "viewer")).toBe(true);
    expect(hasRole("viewer", "admin")).toBe(false);
  });
});
