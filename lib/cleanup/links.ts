// Where the pages that name a problem offer its cleanup: a finding's rule and agent → the recipe, and the
// new-run form's URL with recipe and scope filled in. Plain data, used by components in the browser.
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { rootPatternMatches } from "@/lib/catalog/recipe-roots";

/** The recipe that frees what an oversized root or a large session of each agent holds. */
const SESSION_RECIPES: Record<string, RecipeId> = {
  "claude-code": "claude-code-sessions",
  codex: "codex-rollouts",
  gemini: "gemini-chats",
  copilot: "copilot-sessions",
  cursor: "cursor-chats",
  opencode: "opencode-logs",
};

/** The recipe for a module root's bulk (its logs), matched by its root pattern. */
const MODULE_LOGS = RECIPES.find((r) => r.id === "module-logs")!;

/** The recipe for a finding, or null when no recipe fixes it (volume-full, silent-workspace, agents with no safe unit). */
export function recipeForFinding(f: {
  ruleId: string;
  agent?: string | null;
  rootKey?: string | null;
}): RecipeId | null {
  switch (f.ruleId) {
    case "orphaned-script-data":
      return "orphaned-script-data";
    case "agentapi-leftover":
      return "agentapi-leftovers";
    case "claude-debug-history":
      return "claude-code-debug";
    case "agent-retention":
      return f.agent ? (SESSION_RECIPES[f.agent] ?? null) : null;
    case "root-oversize":
    case "large-session": {
      const session = f.agent ? SESSION_RECIPES[f.agent] : undefined;
      const key = f.rootKey;
      if (!key) return session ?? null;
      if (MODULE_LOGS.roots.some((p) => rootPatternMatches(p, key))) return "module-logs";
      // the agent's recipe for that very root: its sessions', or one of a root of its own (MCP logs, releases)
      const acting = RECIPES.filter((r) => r.agent === f.agent && r.roots.some((p) => rootPatternMatches(p, key)));
      return acting.find((r) => r.id === session)?.id ?? acting[0]?.id ?? null;
    }
    default:
      return null;
  }
}

export function recipesForAgent(agent: string): RecipeId[] {
  return RECIPES.filter((r) => r.agent === agent).map((r) => r.id);
}

/** /cleanup/new with recipe and scope filled in (no workspace: the whole fleet). */
export function newRunHref(opts: {
  recipe?: RecipeId | null;
  workspace?: string | null;
  agent?: string | null;
}): string {
  const qs = new URLSearchParams();
  if (opts.recipe) qs.set("recipe", opts.recipe);
  if (opts.workspace) qs.set("workspace", opts.workspace);
  if (opts.agent) qs.set("agent", opts.agent);
  const s = qs.toString();
  return s ? `/cleanup/new?${s}` : "/cleanup/new";
}

/** The new-policy form with `recipe` chosen: where an agent cannot limit its own data, a policy does it. */
export const newPolicyHref = (recipe: RecipeId) => `/cleanup/policies/new?recipe=${encodeURIComponent(recipe)}`;
