import { describe, expect, it } from "vitest";
import { MIN_AGE_HOURS, TRASH_DAYS } from "./defaults";
import { runRequest } from "./protocol";
import {
  defaultDraft,
  draftFrom,
  draftOnlyDeleted,
  runRequestOf,
  scopeTokens,
  withCustom,
  withTarget,
  type RunDraft,
} from "./run-draft";

const request = (d: RunDraft, ...rest: Parameters<typeof runRequestOf> extends [RunDraft, ...infer R] ? R : never) => {
  const r = runRequestOf(d, ...rest);
  if (!r.ok) throw new Error(r.problem);
  return r.request;
};

describe("defaultDraft", () => {
  it("starts where the server would: a request with nothing but recipe, params and scope parses to the draft's request", () => {
    const built = request(defaultDraft("codex-rollouts"));
    const parsed = runRequest.parse({
      recipe: "codex-rollouts",
      params: { olderThanDays: 30 },
      scope: { all: true },
      action: "trash",
    });
    expect(built).toEqual(parsed);
    expect(built.trashDays).toBe(TRASH_DAYS.default);
    expect(built.minAgeHours).toBe(MIN_AGE_HOURS.default);
  });

  it("scopes to the workspace it was opened for, with the recipe's own action and age", () => {
    const built = request(defaultDraft("module-logs", "ws-1"));
    expect(built).toMatchObject({
      recipe: "module-logs",
      params: { olderThanDays: 14 },
      scope: { workspaceIds: ["ws-1"] },
      action: "delete",
    });
  });
});

describe("runRequestOf", () => {
  const base = defaultDraft("claude-code-sessions");

  it("says what is missing instead of building a request the server would refuse", () => {
    expect(runRequestOf({ ...base, olderThanDays: "" })).toEqual({
      ok: false,
      problem: "Give at least one of older than, keep newest, cap.",
    });
    expect(runRequestOf({ ...base, olderThanDays: "-3" }).ok).toBe(false);
    expect(runRequestOf({ ...base, scopeKind: "owners", scopeValues: " , " })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/at least one workspace/),
    });
    expect(runRequestOf({ ...withTarget(base, "custom") })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/root and the glob/),
    });
  });

  it("turns the typed numbers into the parameters, a cap in MiB into bytes", () => {
    expect(request({ ...base, olderThanDays: "", keepNewest: " 5 ", capMiB: "100" }).params).toEqual({
      keepNewest: 5,
      capBytes: 100 * 1024 ** 2,
    });
  });

  it("sends owners and templates as typed, each once", () => {
    expect(request({ ...base, scopeKind: "owners", scopeValues: "yara, bob yara" }).scope).toEqual({
      owners: ["yara", "bob"],
    });
    expect(request({ ...base, scopeKind: "templates", scopeValues: "k8s" }).scope).toEqual({ templates: ["k8s"] });
  });

  it("resolves typed workspaces to ids, and stops at the first it cannot resolve", () => {
    const ids: Record<string, string> = { "billing-yara-39": "id-1", "yara/api": "id-2" };
    const resolve = (t: string) =>
      ids[t] ? { ok: true as const, id: ids[t] } : { ok: false as const, problem: `No workspace is named “${t}”.` };
    const d = { ...base, scopeKind: "workspaceIds" as const, scopeValues: "billing-yara-39, yara/api billing-yara-39" };
    expect(request(d, resolve).scope).toEqual({ workspaceIds: ["id-1", "id-2"] });
    expect(runRequestOf({ ...d, scopeValues: "billing-yara-39, nope" }, resolve)).toEqual({
      ok: false,
      problem: "No workspace is named “nope”.",
    });
  });

  it("builds a custom target instead of a recipe, which the protocol accepts", () => {
    const d = {
      ...withTarget(base, "custom"),
      custom: { rootKey: " team/cache ", glob: "tmp/*.log", unit: "file" as const },
    };
    const built = request(d);
    expect(built.recipe).toBeUndefined();
    expect(built.custom).toEqual({ rootKey: "team/cache", glob: "tmp/*.log", unit: "file" });
    expect(runRequest.safeParse(built).success).toBe(true);
    // The protocol, not the form, judges the glob: one that could leave the root is built and refused there.
    expect(runRequest.safeParse(request({ ...d, custom: { ...d.custom, glob: "../etc/*" } })).success).toBe(false);
  });
});

describe("withTarget", () => {
  it("keeps the scope across recipes and resets the parameters to the new recipe's", () => {
    const d = { ...defaultDraft("claude-code-sessions", "ws-1"), olderThanDays: "3" };
    const next = withTarget(d, { recipe: "module-logs" });
    expect(next).toMatchObject({
      recipe: "module-logs",
      olderThanDays: "14",
      action: "delete",
      scopeKind: "workspaceIds",
      scopeValues: "ws-1",
    });
  });

  it("trashes a custom target by default (restorable), keeping the parameters", () => {
    const d = withTarget({ ...defaultDraft("module-logs"), olderThanDays: "3" }, "custom");
    expect(d).toMatchObject({ target: "custom", action: "trash", olderThanDays: "3" });
  });

  it("deletes a custom target inside a package cache, as the server and the reporter only allow", () => {
    const d = withTarget(defaultDraft("module-logs"), "custom");
    const inCache = withCustom(d, { rootKey: "package-cache:go-mod", glob: "cache/download/**", unit: "file" });
    expect(inCache.action).toBe("delete");
    expect(draftOnlyDeleted(inCache)).toBe(true);
    expect(draftOnlyDeleted(withCustom(inCache, { ...inCache.custom, rootKey: "codex:data" }))).toBe(false);
    const saved = draftFrom({
      ...runRequest.parse({ custom: inCache.custom, params: { olderThanDays: 1 }, scope: { all: true } }),
    });
    expect(saved.action).toBe("delete");
  });
});

describe("draftFrom", () => {
  it("gives back the request it was made from (a saved policy opens as it was saved)", () => {
    const drafts = [
      {
        ...defaultDraft("gemini-chats"),
        keepNewest: "10",
        capMiB: "2048",
        scopeKind: "templates" as const,
        scopeValues: "k8s, docker",
        dryRun: true,
      },
      {
        ...withTarget(defaultDraft("gemini-chats", "ws-9"), "custom"),
        custom: { rootKey: "team/cache", glob: "**/*.tmp", unit: "dir" as const },
      },
    ];
    for (const d of drafts) {
      const saved = request(d);
      expect(request(draftFrom({ ...saved, recipe: saved.recipe ?? null, custom: saved.custom ?? null }))).toEqual(
        saved,
      );
    }
  });
});

describe("scopeTokens", () => {
  it("splits on commas and spaces and drops repeats", () => {
    expect(scopeTokens(" a,b  c, a,,")).toEqual(["a", "b", "c"]);
  });
});

describe("a package cache's draft", () => {
  it("deletes, and the protocol refuses the same run asking for the trash, saying why", () => {
    const built = request(defaultDraft("pnpm-store"));
    expect(built).toMatchObject({ recipe: "pnpm-store", action: "delete", params: { olderThanDays: 1 } });
    expect(runRequest.safeParse(built).success).toBe(true);
    const trashed = runRequest.safeParse({ ...built, action: "trash" });
    expect(trashed.success).toBe(false);
    expect(trashed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["action", expect.stringContaining("only ever deleted")],
    ]);
    // a recipe that may be trashed still may
    expect(runRequest.safeParse({ ...request(defaultDraft("codex-rollouts")), action: "trash" }).success).toBe(true);
  });
});
