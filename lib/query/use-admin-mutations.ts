import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ApiTokenInfo } from "@/lib/auth/api-tokens";
import type { UserInfo } from "@/lib/auth/users";
import type { AssignableRole, CreateTokenRequest, CreateUserRequest } from "@/lib/validations/auth";
import {
  adminKeys,
  patchUser,
  postToken,
  postUser,
  putReporterRollout,
  putRetention,
  revokeToken,
  rotateEnrollmentKey,
} from "./admin";
import type { TeamUpload } from "@/lib/services/team-upload";
import { postTeamsUpload, usageKeys } from "./usage";
import { useInvalidatingMutation, type MutationCallbacks } from "./use-invalidating-mutation";

const USERS = [adminKeys.users()];
const TOKENS = [adminKeys.tokens()];

export const useCreateUser = (callbacks?: MutationCallbacks<{ user: UserInfo }, CreateUserRequest>) =>
  useInvalidatingMutation(postUser, USERS, callbacks);

/** A role change, or disabling and enabling. */
export const useChangeUser = () =>
  useInvalidatingMutation(
    ({ id, ...body }: { id: string; role?: AssignableRole; disabled?: boolean }) => patchUser(id, body),
    USERS,
  );

export const useCreateToken = (
  callbacks?: MutationCallbacks<{ token: string; info: ApiTokenInfo }, CreateTokenRequest>,
) => useInvalidatingMutation(postToken, TOKENS, callbacks);

export const useRevokeToken = () => useInvalidatingMutation(revokeToken, TOKENS);

/**
 * Mutations of what server components render (settings, the enrollment key): the page is refreshed from the
 * server instead of a query being invalidated.
 */
function useRefreshingMutation<TData, TVars>(mutationFn: (vars: TVars) => Promise<TData>, onSuccess?: () => void) {
  const router = useRouter();
  return useMutation<TData, Error, TVars>({
    mutationFn,
    onSuccess: () => {
      onSuccess?.();
      router.refresh();
    },
  });
}

export const useSaveRetention = (onSaved: () => void) => useRefreshingMutation(putRetention, onSaved);

export const useSaveReporterRollout = (onSaved: () => void) => useRefreshingMutation(putReporterRollout, onSaved);

export const useRotateEnrollmentKey = () => useRefreshingMutation(rotateEnrollmentKey);

/** An owner → team upload: every usage view is read again, the groups being new. */
export const useUploadTeams = (callbacks?: MutationCallbacks<TeamUpload, string>) =>
  useInvalidatingMutation(postTeamsUpload, [usageKeys.all], callbacks);
