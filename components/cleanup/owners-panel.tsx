"use client";

import { useQuery } from "@tanstack/react-query";
import { RECIPES } from "@/lib/catalog/recipes";
import { ownersNever } from "@/lib/cleanup/owners";
import { keepsOptions, ownerRecipesOptions, useEndAnyKeep, useMarkOwnerRecipe } from "@/lib/query/owner-admin";
import { useIsAdmin } from "@/components/auth/caller-context";
import { CheckField } from "@/components/ui/field";
import { QueryView } from "@/components/ui/states";
import { KeepList } from "./keep-list";

const title = (id: string) => RECIPES.find((r) => r.id === id)?.title ?? id;

/** Which recipes owners may run on their own workspaces (My storage): admins switch each, viewers read. */
function OwnerRecipes() {
  const query = useQuery(ownerRecipesOptions());
  const mark = useMarkOwnerRecipe();
  const isAdmin = useIsAdmin();
  return (
    <QueryView query={query} height={120}>
      {({ recipes }) => (
        <div className="stack snug" data-testid="owner-recipes">
          <div className="row">
            {recipes
              .filter((r) => ownersNever(r.recipe) === null)
              .map((r) =>
                isAdmin ? (
                  <CheckField
                    key={r.recipe}
                    className="small"
                    label={title(r.recipe)}
                    checked={r.ownersMayRun}
                    disabled={mark.isPending}
                    onChecked={(ownersMayRun) => mark.mutate({ recipe: r.recipe, ownersMayRun })}
                  />
                ) : r.ownersMayRun ? (
                  <span key={r.recipe} className="small">
                    {title(r.recipe)}
                  </span>
                ) : null,
              )}
          </div>
          {mark.error ? (
            <p className="error-message" role="alert">
              {mark.error.message}
            </p>
          ) : null}
        </div>
      )}
    </QueryView>
  );
}

/** Every Keep in force, its owner and expiry; an admin may end one. */
function AllKeeps() {
  const query = useQuery(keepsOptions());
  const end = useEndAnyKeep();
  return (
    <QueryView query={query} height={80}>
      {({ keeps }) =>
        keeps.length === 0 ? (
          <p className="small muted">No owner keeps anything from cleanup now.</p>
        ) : (
          <KeepList keeps={keeps} where={(k) => `${k.owner}/${k.workspaceName}`} end={end} testId="all-keeps" />
        )
      }
    </QueryView>
  );
}

/** The owners' cleanups as admins see them: what owners may run (always to the trash), and their Keeps. */
export function OwnersPanel() {
  const isAdmin = useIsAdmin();
  return (
    <div className="stack snug">
      <p className="muted small">
        Owners run these on their own workspaces from My storage, without an admin: always to the trash, restorable for
        7 days, never more than their own preview showed. Package caches are never offered to owners. Their runs are
        listed with the others.
      </p>
      <OwnerRecipes />
      {isAdmin ? (
        <>
          <h3 className="small">Kept from cleanup by their owners</h3>
          <AllKeeps />
        </>
      ) : null}
    </div>
  );
}
