import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";

/** What a component adds to a domain's mutation: what it shows or where it goes once the data is fresh. */
export type MutationCallbacks<TData, TVars> = {
  onSuccess?: (data: TData, vars: TVars) => unknown;
  onError?: (error: Error, vars: TVars) => unknown;
};

/**
 * A mutation that marks `invalidates` stale (by key prefix) when it succeeds, before the caller's onSuccess:
 * a page it navigates to, or a list it shows again, reads the new data.
 */
export function useInvalidatingMutation<TData, TVars = void>(
  mutationFn: (vars: TVars) => Promise<TData>,
  invalidates: readonly QueryKey[],
  callbacks: MutationCallbacks<TData, TVars> = {},
) {
  const client = useQueryClient();
  return useMutation<TData, Error, TVars>({
    mutationFn,
    onSuccess: async (data, vars) => {
      await Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
      await callbacks.onSuccess?.(data, vars);
    },
    onError: (error, vars) => callbacks.onError?.(error, vars),
  });
}
