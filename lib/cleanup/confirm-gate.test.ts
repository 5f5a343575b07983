import { describe, expect, it } from "vitest";
import { confirmGate, TYPE_ABOVE, typedMatches } from "./confirm-gate";

const GIB = 1024 ** 3;

describe("confirmGate", () => {
  it("asks nothing of a dry run, however large", () => {
    expect(confirmGate({ dryRun: true, bytes: 500 * GIB, workspaces: 900 })).toEqual({ kind: "none" });
  });

  it("asks a click up to 10 GiB and 10 workspaces, both included", () => {
    expect(confirmGate({ dryRun: false, bytes: TYPE_ABOVE.bytes, workspaces: 10 })).toEqual({ kind: "click" });
    expect(confirmGate({ dryRun: false, bytes: 1, workspaces: 1 }, "ws")).toEqual({ kind: "click" });
  });

  it("asks the figure as written above 10 GiB or above 10 workspaces", () => {
    expect(confirmGate({ dryRun: false, bytes: 326 * GIB, workspaces: 73 })).toEqual({
      kind: "type",
      expected: "326 GiB",
      what: "figure",
    });
    expect(confirmGate({ dryRun: false, bytes: 5 * 1024 ** 2, workspaces: 11 })).toMatchObject({
      expected: "5 MiB",
    });
  });

  it("asks the workspace's name when a large run acts on one workspace", () => {
    expect(confirmGate({ dryRun: false, bytes: 40 * GIB, workspaces: 1 }, "alice/dev")).toEqual({
      kind: "type",
      expected: "alice/dev",
      what: "workspace name",
    });
  });
});

describe("typedMatches", () => {
  const gate = confirmGate({ dryRun: false, bytes: 326 * GIB, workspaces: 73 });

  it("takes the figure with any case and spacing", () => {
    expect(typedMatches(gate, "326 GiB")).toBe(true);
    expect(typedMatches(gate, "  326   gib ")).toBe(true);
  });

  it("refuses anything else: another figure, a part of it, nothing", () => {
    expect(typedMatches(gate, "325 GiB")).toBe(false);
    expect(typedMatches(gate, "326")).toBe(false);
    expect(typedMatches(gate, "")).toBe(false);
  });

  it("asks nothing typed of a click", () => {
    expect(typedMatches({ kind: "click" }, "")).toBe(true);
  });
});
