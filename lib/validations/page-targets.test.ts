import { describe, expect, it } from "vitest";
import { pageTarget } from "./page-targets";

const RUN = "0b7c1a4e-3f1d-4c55-9d5e-2a7f3c9b1e20";

describe("pageTarget", () => {
  it("reads the record a detail page's path names, decoded, without its query", () => {
    expect(pageTarget("/workspaces/alice%2Fdev?range=30d")).toEqual({ kind: "workspace", id: "alice/dev" });
    expect(pageTarget("/agents/claude-code")).toEqual({ kind: "agent", id: "claude-code" });
    expect(pageTarget(`/cleanup/runs/${RUN}?state=queued`)).toEqual({ kind: "run", id: RUN });
    expect(pageTarget(`/cleanup/policies/${RUN}`)).toEqual({ kind: "policy", id: RUN });
    expect(pageTarget("/modules/coder/claude-code?range=7d")).toEqual({ kind: "module", id: "coder/claude-code" });
  });

  it("names nothing for lists, forms and the overview", () => {
    for (const path of ["/", "/workspaces", "/cleanup", "/cleanup/new", "/cleanup/policies/new", "/agents"]) {
      expect(pageTarget(path)).toBeNull();
    }
  });

  it("takes an id that cannot be one as unknown", () => {
    expect(pageTarget("/cleanup/runs/not-a-uuid")).toEqual({ kind: "invalid" });
    expect(pageTarget("/workspaces/%E0%A4%A")).toEqual({ kind: "invalid" });
    expect(pageTarget("/modules/coder/a%2Fb")).toEqual({ kind: "invalid" });
    expect(pageTarget("/modules/coder/%20x")).toEqual({ kind: "invalid" });
  });
});
