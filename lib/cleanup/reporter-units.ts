import gte from "semver/functions/gte";
import valid from "semver/functions/valid";
import type { Recipe } from "@/lib/catalog/recipes";

/**
 * Why a workspace's figure for `recipe` is not what its reporter's job would act on, or null when it is: a
 * report from a reporter older than the recipe's `unitsSince` counted smaller units than a job of the newer
 * reporter removes, so a run built on it would delete more than the admin saw. A version that is no release
 * number (or unknown, its report expired) cannot be shown to be new enough, and is left out too.
 */
export function outdatedUnitsReason(recipe: Recipe | null, reporterVersion: string | null): string | null {
  const since = recipe?.unitsSince;
  if (!since) return null;
  const update = `update it to ${since.version} or later`;
  if (!reporterVersion || !valid(reporterVersion)) {
    return `its reporter's version (${reporterVersion ?? "unknown"}) cannot be compared with ${since.version}; ${update}`;
  }
  return gte(reporterVersion, since.version) ? null : `its reporter (${reporterVersion}) ${since.earlier}; ${update}`;
}
