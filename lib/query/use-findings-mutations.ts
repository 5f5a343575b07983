import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RuleUpdate } from "@/lib/findings/rules";
import { findingKeys, putRules } from "./findings";
import { fleetKeys } from "./fleet";
import { workspaceKeys } from "./workspaces";

/** A rule's new thresholds change every finding shown: the findings list, the overview and each workspace's page. */
export function useSaveRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (u: RuleUpdate) => putRules({ rules: [u] }),
    onSuccess: async (data) => {
      client.setQueryData(findingKeys.rules(), data);
      await Promise.all([
        client.invalidateQueries({ queryKey: findingKeys.all }),
        client.invalidateQueries({ queryKey: fleetKeys.all }),
        client.invalidateQueries({ queryKey: workspaceKeys.details() }),
      ]);
    },
  });
}
