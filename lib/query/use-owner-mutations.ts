import type { RecipeId } from "@/lib/catalog/recipes";
import type { OwnerPreview } from "@/lib/services/owner-cleanup";
import { cleanupKeys } from "./cleanup";
import {
  deleteKeep,
  meKeys,
  postKeep,
  postOwnerPreview,
  postOwnerRestore,
  postOwnerRun,
  putNoticePreferences,
} from "./me";
import { useInvalidatingMutation, type MutationCallbacks } from "./use-invalidating-mutation";

// What each owner's action makes stale: My storage (its trash, Keeps and figures), and the runs admins list.
const MINE = [meKeys.storage(), cleanupKeys.runs()];

type Queued = { id: string; jobs: number };
type Target = { workspaceId: string; recipe: RecipeId };

/** A preview changes nothing: no cache to refresh. */
export const useOwnerPreview = (callbacks?: MutationCallbacks<OwnerPreview, Target>) =>
  useInvalidatingMutation(postOwnerPreview, [], callbacks);

export const useOwnerRun = (callbacks?: MutationCallbacks<Queued, Target & { confirmBytes: number }>) =>
  useInvalidatingMutation(postOwnerRun, MINE, callbacks);

export const useOwnerRestore = (callbacks?: MutationCallbacks<Queued, string>) =>
  useInvalidatingMutation(postOwnerRestore, MINE, callbacks);

export const useAddKeep = (
  callbacks?: MutationCallbacks<{ id: string }, { workspaceId: string; path: string; days: number }>,
) => useInvalidatingMutation(postKeep, MINE, callbacks);

export const useEndKeep = () => useInvalidatingMutation(deleteKeep, MINE);

/** An owner turning an optional kind of notice on or off on one channel. */
export const useNoticePreferences = () => useInvalidatingMutation(putNoticePreferences, [meKeys.noticePreferences()]);
