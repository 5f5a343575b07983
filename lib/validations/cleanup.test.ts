// A policy's PATCH is its create request made partial: the same fields, validated as there, none filled in.
import { describe, expect, it } from "vitest";
import { createPolicyRequest, updatePolicyRequest } from "./cleanup";

const policy = {
  name: "weekly sessions",
  schedule: "weekly",
  recipe: "claude-code-sessions",
  params: { olderThanDays: 30 },
  scope: { all: true },
};

describe("updatePolicyRequest", () => {
  it("takes only the fields it is given: an absent field keeps the stored value, no default is filled in", () => {
    expect(updatePolicyRequest.parse({ name: "renamed" })).toEqual({ name: "renamed" });
    expect(updatePolicyRequest.parse({})).toEqual({});
  });

  it("refuses each field's value where the create request refuses it", () => {
    const fields: Record<string, unknown[]> = {
      trashDays: [0, 91, 1.5],
      minAgeHours: [0],
      expiresDays: [0, 91],
      runAtMinute: [1440],
      runWeekday: [7],
      schedule: ["hourly"],
      params: [{}, { olderThanDays: -1 }],
      scope: [{ owners: [] }],
      custom: [{ rootKey: "claude-code:data", glob: "../x" }],
      recipe: ["nope"],
      action: ["shred"],
      name: [""],
    };
    for (const [field, values] of Object.entries(fields)) {
      for (const value of values) {
        const create = createPolicyRequest.safeParse({ ...policy, [field]: value });
        const update = updatePolicyRequest.safeParse({ [field]: value });
        expect([create.success, update.success], `${field}: ${JSON.stringify(value)}`).toEqual([false, false]);
      }
    }
    expect(updatePolicyRequest.safeParse({ unknown: 1 }).success).toBe(false);
  });

  it("refuses a custom rule's glob with more wildcards than the limit, saying so", () => {
    const custom = (glob: string) => ({ rootKey: "claude-code:data", glob });
    const refused = updatePolicyRequest.safeParse({ custom: custom("*a*a*a*a*a*a*a*a*b") });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toMatch(/has 9 wildcards; at most 8/);
    expect(updatePolicyRequest.safeParse({ custom: custom("projects/**/*.jsonl") }).success).toBe(true);
  });

  it("accepts what the create request accepts, field by field, and null to remove a field", () => {
    for (const [field, value] of Object.entries({
      trashDays: 30,
      params: { keepNewest: 5 },
      scope: { owners: ["ann"] },
      dryRun: true,
      custom: null,
      recipe: null,
    })) {
      expect(updatePolicyRequest.parse({ [field]: value }), field).toEqual({ [field]: value });
    }
  });
});
