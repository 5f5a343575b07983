"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { RecipeId } from "@/lib/catalog/recipes";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import type { RunSummary } from "@/lib/db/queries/cleanup-views";
import { useCreateRun } from "@/lib/query/use-cleanup-mutations";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ConfirmRunDialog } from "./confirm-run-dialog";
import { confirmLabel, runConsequence, scopeText } from "./run-text";
import { Button } from "@/components/ui/button";

/**
 * "Promote this dry run": the same cleanup for real, with the dry run's own figure (what it was previewed at)
 * as the figure confirmed; the server refuses it (409) when the fleet has moved by more than its tolerance since.
 */
export function PromoteDryRun({ run }: { run: RunSummary }) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const create = useCreateRun({ onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`) });
  if (!useIsAdmin() || run.kind !== "cleanup" || !run.dryRun) return null;
  const total = { bytes: run.previewBytes, workspaces: run.progress.jobs };
  const label = confirmLabel(run.action, false, total, run.custom !== null);
  const names = Object.values(run.scopeWorkspaces);
  const one = total.workspaces === 1 && names.length === 1 ? `${names[0].owner}/${names[0].name}` : undefined;
  return (
    <>
      <Button data-testid="promote-dry-run" onClick={() => setAsking(true)}>
        Promote this dry run
      </Button>
      {asking ? (
        <ConfirmRunDialog
          title={label}
          scope={scopeText(run.scope, run.scopeWorkspaces)}
          consequence={runConsequence(run.action, run.trashDays, run.recipe)}
          gate={confirmGate({ dryRun: false, ...total }, one)}
          pending={create.isPending}
          error={create.isError ? create.error.message : null}
          onConfirm={() =>
            create.mutate({
              ...(run.recipe ? { recipe: run.recipe as RecipeId } : { custom: run.custom! }),
              params: run.params ?? {},
              scope: run.scope,
              dryRun: false,
              action: run.action,
              trashDays: run.trashDays,
              minAgeHours: run.minAgeHours,
              countStatusChanges: run.countStatusChanges,
              confirmBytes: run.previewBytes,
              expiresDays: run.expiresDays,
            })
          }
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
