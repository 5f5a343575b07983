import { queryOptions } from "@tanstack/react-query";
import type { RecipeId } from "@/lib/catalog/recipes";
import type { KeepRow } from "@/lib/db/queries/owner-cleanup";
import { fetchJson } from "./fetch-json";
import { meKeys } from "./me";
import { useInvalidatingMutation } from "./use-invalidating-mutation";

// The admins' side of the owners' cleanups: which recipes owners may run, and every Keep in force.

export const ownerAdminKeys = {
  recipes: () => ["cleanup", "owner-recipes"] as const,
  keeps: () => ["cleanup", "keeps"] as const,
};

export const ownerRecipesOptions = () =>
  queryOptions({
    queryKey: ownerAdminKeys.recipes(),
    queryFn: ({ signal }) =>
      fetchJson<{ recipes: { recipe: RecipeId; ownersMayRun: boolean }[] }>("/api/v1/cleanup/owner-recipes", {
        signal,
      }),
  });

export const keepsOptions = () =>
  queryOptions({
    queryKey: ownerAdminKeys.keeps(),
    queryFn: ({ signal }) => fetchJson<{ keeps: KeepRow[] }>("/api/v1/cleanup/keeps", { signal }),
  });

export const useMarkOwnerRecipe = () =>
  useInvalidatingMutation(
    (body: { recipe: RecipeId; ownersMayRun: boolean }) =>
      fetchJson("/api/v1/cleanup/owner-recipes", { method: "PUT", body: JSON.stringify(body) }),
    [ownerAdminKeys.recipes(), meKeys.storage()],
  );

export const useEndAnyKeep = () =>
  useInvalidatingMutation(
    (id: string) => fetchJson(`/api/v1/cleanup/keeps/${encodeURIComponent(id)}`, { method: "DELETE" }),
    [ownerAdminKeys.keeps(), meKeys.storage()],
  );
