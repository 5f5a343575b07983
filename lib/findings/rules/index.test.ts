import { describe, expect, it } from "vitest";
import { DEFAULT_RULES, describeFinding, mergeRules, rulesUpdateRequest } from ".";

describe("findings rules", () => {
  it("merges valid overrides and ignores stale ones", () => {
    const { rules: r, ignored } = mergeRules([
      { id: "volume-filling", enabled: null, severity: "warning", params: { days: 3 } },
      { id: "large-session", enabled: false, severity: "bogus", params: { bytes: -1 } },
      { id: "retired-rule", enabled: true, severity: null, params: null },
    ]);
    expect(r["volume-filling"]).toMatchObject({ enabled: true, severity: "warning", params: { days: 3 } });
    expect(r["large-session"]).toMatchObject({
      enabled: false,
      severity: "warning",
      params: DEFAULT_RULES["large-session"].params,
    });
    // The stale thresholds are named, with why, for the log and the rules page.
    expect(ignored).toEqual([
      { id: "large-session", params: { bytes: -1 }, problem: expect.stringContaining("bytes") },
    ]);
  });
  it("validates an admin's changes per rule", () => {
    expect(rulesUpdateRequest.safeParse({ rules: [{ id: "fast-growth", params: { bytesPerDay: 1 } }] }).success).toBe(
      true,
    );
    expect(rulesUpdateRequest.safeParse({ rules: [{ id: "fast-growth", params: { days: 1 } }] }).success).toBe(false);
    expect(rulesUpdateRequest.safeParse({ rules: [{ id: "nope" }] }).success).toBe(false);
    expect(rulesUpdateRequest.safeParse({ rules: [] }).success).toBe(false);
  });
  it("words findings in their rule's words", () => {
    const ws = { id: "w", name: "w", owner: "o" };
    const base = { workspace: ws, rootKey: null, agent: null, path: null } as const;
    const fill = describeFinding({
      ...base,
      ruleId: "volume-filling",
      severity: "critical",
      value: 2,
      threshold: 7,
      unit: "days",
    });
    const big = describeFinding({
      ...base,
      ruleId: "root-oversize",
      severity: "warning",
      rootKey: "codex:data",
      agent: "codex",
      value: 200 * 2 ** 20,
      threshold: 50 * 2 ** 20,
      unit: "bytes",
    });
    expect(fill.message).toContain("2.0 days");
    expect(big.message).toBe("codex:data holds 200 MiB, over the 50 MiB expected for codex.");
    expect(big.action).toContain("rollout");
  });
});
