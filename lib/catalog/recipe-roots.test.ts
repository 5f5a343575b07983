// One set of roots through every user of the recipe-root rule: the reporter's targets (what a job acts on), the
// findings' links and the workspace page's per-root link, and the preview's SQL on both databases. They select
// the same roots for every recipe, and those are the roots the table below names.
import { expect, it } from "vitest";
import { previewRun } from "@/lib/db/queries/cleanup-preview";
import { describeEachDatabase } from "@/tests/support/db";
import { recipeForFinding } from "@/lib/cleanup/links";
import type { RootKind } from "@/lib/report-format/constants";
import { recipesFor } from "@/lib/reporter/cleanup/targets";
import { seedWorkspace, usage } from "@/tests/support/cleanup";
import { MiB } from "@/tests/support/reports";
import { PACKAGE_CACHES } from "./recipe-data/caches";
import { cleanable, recipesForRoot, type RootFacts } from "./recipe-roots";
import { RECIPE_IDS, RECIPES, REPORTER_DIR, type RecipeId } from "./recipes";

type Case = RootFacts & { kind: RootKind; recipes: RecipeId[] };

const CLAUDE: RecipeId[] = ["claude-code-sessions", "claude-code-debug", "claude-code-file-history"];
const MODULE: RecipeId[] = ["module-logs", "agentapi-leftovers"];

const CASES: Case[] = [
  { key: "coder/claude-code", kind: "module", path: ".coder-modules/coder/claude-code", recipes: MODULE },
  { key: "my.org/agent_x", kind: "module", path: ".coder-modules/my.org/agent_x", recipes: MODULE },
  { key: "coder/storage-reporter", kind: "module", path: REPORTER_DIR, recipes: [] },
  { key: "claude-code:data", kind: "tool", path: ".claude", recipes: CLAUDE },
  {
    key: "claude-code:mcp-logs",
    kind: "tool",
    path: ".cache/claude-cli-nodejs",
    recipes: ["claude-code-mcp-logs"],
  },
  {
    key: "claude-code:versions",
    kind: "tool",
    path: ".local/share/claude/versions",
    recipes: ["claude-code-versions"],
  },
  {
    key: "codex:data",
    kind: "tool",
    path: ".codex",
    recipes: ["codex-rollouts", "codex-archived-sessions", "codex-releases"],
  },
  {
    key: "opencode:data",
    kind: "tool",
    path: ".local/share/opencode",
    recipes: ["opencode-logs", "opencode-tool-output", "opencode-snapshots"],
  },
  { key: "copilot:data", kind: "tool", path: ".copilot", recipes: ["copilot-sessions", "copilot-versions"] },
  { key: "goose:data", kind: "tool", path: ".config/goose", recipes: [] },
  // AgentAPI's files in the legacy layout of the same modules
  { key: "legacy:claude-module", kind: "legacy", path: ".claude-module", recipes: ["agentapi-leftovers"] },
  { key: "legacy:codex-module", kind: "legacy", path: ".codex-module", recipes: ["agentapi-leftovers"] },
  {
    key: "script-data:0b7c",
    kind: "script-data",
    path: ".coder-script-data/0b7c",
    orphaned: true,
    recipes: ["orphaned-script-data"],
  },
  { key: "script-data:1d2e", kind: "script-data", path: ".coder-script-data/1d2e", orphaned: false, recipes: [] },
  // Keys the reporter never makes for these kinds: `*` is one segment, never across ":" or "/".
  { key: "script-data:a:b", kind: "script-data", path: ".coder-script-data/a:b", orphaned: true, recipes: [] },
  { key: "team:cache/logs", kind: "tool", path: ".team-cache/logs", recipes: [] },
  { key: "coder/a/b", kind: "module", path: ".coder-modules/coder/a/b", recipes: [] },
  // Package caches: each root its own recipe, and only its own.
  ...PACKAGE_CACHES.map((c) => ({ key: c.key, kind: "package-cache" as const, path: c.path, recipes: [c.recipe] })),
  // An admin's custom root that looks like a module's, and the trash: no recipe.
  { key: "team/cache", kind: "custom", path: "cache", recipes: [] },
  { key: "trash:coder", kind: "trash", path: `${REPORTER_DIR}/trash`, recipes: [] },
];

const reporterSelects = (c: Case, id: RecipeId) => recipesFor({ ...c, rel: c.path }).some((t) => t.id === id);

it("the reporter, the workspace page's link and the table agree on each root's recipes", () => {
  for (const c of CASES) {
    expect(
      RECIPE_IDS.filter((id) => reporterSelects(c, id)),
      c.key,
    ).toEqual(c.recipes);
    expect(
      recipesForRoot(c).map((r) => r.id),
      c.key,
    ).toEqual(c.recipes);
  }
});

it("a finding on a root links to module-logs where the reporter would clean that root's logs", () => {
  // A finding names its root by key alone: compared on the roots whose key is what decides.
  for (const c of CASES.filter((x) => cleanable(x) && x.kind !== "custom")) {
    const linked = recipeForFinding({ ruleId: "root-oversize", rootKey: c.key, agent: "goose" }) === "module-logs";
    expect(linked, c.key).toBe(reporterSelects(c, "module-logs"));
  }
});

describeEachDatabase("the preview's roots", (t) => {
  it("selects for each recipe the roots the reporter acts on, and a custom rule's root where the reporter may clean", async () => {
    const db = t.current.db;
    const collectedAt = new Date(Date.now() - 3_600_000).toISOString();
    // Every root reports usage for every recipe (two units: a recipe may always keep its newest), so that only
    // the preview's choice of roots decides.
    const everyRecipe = Object.fromEntries(RECIPE_IDS.map((id) => [id, usage({ 30: [2, 2 * MiB] })]));
    for (const [i, c] of CASES.entries()) {
      await seedWorkspace(db, { id: `ws-${i}`, owner: "o" }, collectedAt, [
        {
          key: c.key,
          kind: c.kind,
          path: c.path,
          orphaned: c.orphaned,
          agent: "other",
          bytes: MiB,
          recipes: everyRecipe,
        },
      ]);
    }
    const previewed = async (request: Parameters<typeof previewRun>[1]) =>
      (await previewRun(db, request, { listAll: true })).workspaces.flatMap((w) => w.roots).sort();
    const base = { params: { olderThanDays: 0 }, scope: { all: true as const }, minAgeHours: 24 };

    for (const r of RECIPES) {
      const expected = CASES.filter((c) => reporterSelects(c, r.id))
        .map((c) => c.key)
        .sort();
      expect(await previewed({ ...base, recipe: r.id }), r.id).toEqual(expected);
    }
    for (const c of CASES) {
      const custom = await previewed({ ...base, custom: { rootKey: c.key, glob: "*", unit: "file" } });
      expect(custom, c.key).toEqual(cleanable(c) ? [c.key] : []);
    }
    // A custom rule names one key, as the reporter compares it: a "*" in it is no pattern.
    expect(await previewed({ ...base, custom: { rootKey: "*/*", glob: "*", unit: "file" } })).toEqual([]);
  });
});
