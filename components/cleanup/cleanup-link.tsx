"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import type { RecipeId } from "@/lib/catalog/recipes";
import { newPolicyHref, newRunHref, recipesForAgent } from "@/lib/cleanup/links";
import { useIsAdmin } from "@/components/auth/caller-context";
import { recipeTitle } from "./run-text";

/** Opens the new-run form with recipe and scope filled in. Admins only: viewers see no action. */
export function CleanupLink({
  recipe,
  workspace,
  agent,
  children,
}: {
  recipe: RecipeId | null;
  workspace?: string;
  agent?: string;
  children: ReactNode;
}) {
  if (!useIsAdmin() || !recipe) return null;
  return (
    <Link className="button small" data-testid="cleanup-link" href={newRunHref({ recipe, workspace, agent })}>
      {children}
    </Link>
  );
}

/** The agent page's offer: each of the agent's recipes, fleet-wide. */
export function AgentCleanupLinks({ agent }: { agent: string }) {
  const recipes = recipesForAgent(agent);
  if (!useIsAdmin() || recipes.length === 0) return null;
  return (
    <div className="row small">
      <span className="muted">Clean up fleet-wide:</span>
      {recipes.map((r) => (
        <CleanupLink key={r} recipe={r} agent={agent}>
          {recipeTitle(r)}
        </CleanupLink>
      ))}
    </div>
  );
}

/** Opens the new-policy form with `recipe` chosen. Admins only. */
export function PolicyLink({ recipe }: { recipe: RecipeId | null }) {
  if (!useIsAdmin() || !recipe) return null;
  return (
    <Link className="button small" data-testid="policy-link" href={newPolicyHref(recipe)}>
      Add a cleanup policy
    </Link>
  );
}
