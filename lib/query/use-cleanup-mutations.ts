import type { Policy } from "@/lib/services/policy-view";
import type {
  CreatePolicyRequest,
  CreateRunRequest,
  TruncateRequest,
  UpdatePolicyRequest,
} from "@/lib/validations/cleanup";
import {
  cancelRun,
  cleanupKeys,
  confirmPolicy,
  deletePolicy,
  patchPolicy,
  postPolicy,
  postRun,
  purgeTrash,
  restoreJob,
  runPolicyNow,
  truncateLog,
} from "./cleanup";
import { useInvalidatingMutation, type MutationCallbacks } from "./use-invalidating-mutation";

// What each cleanup mutation makes stale: a new run, the runs list; a new or deleted policy, the policies list;
// a change to a run or a policy, everything cleanup shows (its list row, its page, its preview).
const RUNS = [cleanupKeys.runs()];
const POLICIES = [cleanupKeys.policies()];
const ALL = [cleanupKeys.all];

type Queued = { id: string; jobs: number };

/** Queues what `queue` posts (one run or several in turn), then refreshes the runs list. */
export const useQueueRuns = <TData, TVars = void>(
  queue: (vars: TVars) => Promise<TData>,
  callbacks?: MutationCallbacks<TData, TVars>,
) => useInvalidatingMutation(queue, RUNS, callbacks);

export const useCreateRun = (callbacks?: MutationCallbacks<Queued, CreateRunRequest>) =>
  useQueueRuns(postRun, callbacks);

/** Restoring a job's trash is a run of its own. */
export const useRestoreJob = (callbacks?: MutationCallbacks<Queued, string>) => useQueueRuns(restoreJob, callbacks);

export const usePurgeTrash = (workspaceId: string, callbacks?: MutationCallbacks<Queued, void>) =>
  useQueueRuns(() => purgeTrash([workspaceId]), callbacks);

/** Truncating a log is a run of its own, of one job. */
export const useTruncateLog = (callbacks?: MutationCallbacks<Queued, TruncateRequest>) =>
  useQueueRuns(truncateLog, callbacks);

export const useCancelRun = (id: string) => useInvalidatingMutation(() => cancelRun(id), ALL);

export const useCreatePolicy = (callbacks?: MutationCallbacks<{ policy: Policy }, CreatePolicyRequest>) =>
  useInvalidatingMutation(postPolicy, POLICIES, callbacks);

export const useSavePolicy = (id: string) =>
  useInvalidatingMutation((body: UpdatePolicyRequest) => patchPolicy(id, body), ALL);

export const useConfirmPolicy = (id: string) =>
  useInvalidatingMutation((confirmBytes: number) => confirmPolicy(id, confirmBytes), ALL);

export const useRunPolicyNow = (id: string, callbacks?: MutationCallbacks<Queued, number>) =>
  useQueueRuns((confirmBytes: number) => runPolicyNow(id, confirmBytes), callbacks);

export const useDeletePolicy = (id: string, callbacks?: MutationCallbacks<{ deleted: true }, void>) =>
  useInvalidatingMutation(() => deletePolicy(id), POLICIES, callbacks);
