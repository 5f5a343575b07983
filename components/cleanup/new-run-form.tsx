"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { RECIPES } from "@/lib/catalog/recipes";
import { recipesForAgent } from "@/lib/cleanup/links";
import { formatBytes } from "@/lib/format/bytes";
import { formatCount } from "@/lib/format/numbers";
import { ApiError } from "@/lib/query/fetch-json";
import { cleanupKeys, postRun, previewOptions } from "@/lib/query/cleanup";
import { parseNewRunSearchParams } from "@/lib/validations/cleanup";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/states";
import { PreviewTable } from "./preview-table";
import { defaultDraft, requestOf, RunFields } from "./run-fields";

/** The label of the confirm button: the action and the preview's own figures ("Delete 4.2 GiB from 37 workspaces"). */
export function confirmLabel(action: "delete" | "trash", dryRun: boolean, bytes: number, workspaces: number): string {
  const verb = dryRun ? "Dry run over" : action === "delete" ? "Delete" : "Trash";
  return `${verb} ${formatBytes(bytes)} from ${formatCount(workspaces)} workspace${workspaces === 1 ? "" : "s"}`;
}

/** /cleanup/new: recipe, parameters and scope from the URL, the preview per workspace, and the confirmation. */
export function NewRunForm() {
  const state = parseNewRunSearchParams(useSearchParams());
  const agentRecipes = state.agent ? recipesForAgent(state.agent) : [];
  const [draft, setDraft] = useState(() => defaultDraft(state.recipe ?? agentRecipes[0] ?? RECIPES[0].id, state.workspace));
  const request = requestOf(draft);
  const deferred = useDeferredValue(typeof request === "string" ? null : request);
  const preview = useQuery(previewOptions(deferred));
  const router = useRouter();
  const client = useQueryClient();
  const [conflict, setConflict] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => postRun({ ...(request as Exclude<typeof request, string>), confirmBytes: preview.data!.total.bytes, expiresDays: 7 }),
    onSuccess: async ({ id }) => {
      await client.invalidateQueries({ queryKey: cleanupKeys.runs() });
      router.push(`/cleanup/runs/${id}`);
    },
    onError: (err) => {
      // The fleet changed since the preview: show the new figure and ask again.
      if (err instanceof ApiError && err.status === 409) {
        setConflict(err.message);
        void preview.refetch();
      }
    },
  });
  const ready = typeof request !== "string" && preview.isSuccess && !preview.isPlaceholderData && !preview.isFetching;
  const total = preview.data?.total;
  return (
    <div className="stack">
      <Panel title="What to clean up">
        <RunFields draft={draft} onChange={(d) => { setDraft(d); setConflict(null); }} recipes={agentRecipes} />
        {typeof request === "string" ? <p className="muted">{request}</p> : null}
      </Panel>
      <Panel title="Preview" actions={<span className="muted small">from each workspace&apos;s latest report</span>}>
        {preview.isPending && deferred ? <Skeleton height={120} /> : null}
        {preview.isError ? <ErrorPanel error={preview.error} onRetry={() => void preview.refetch()} /> : null}
        {preview.data ? <PreviewTable preview={preview.data} /> : null}
      </Panel>
      <div className="row">
        {conflict ? <p className="error-message" role="alert">{conflict}</p> : null}
        <button
          type="button"
          className="button primary"
          data-testid="confirm-run"
          disabled={!ready || !total || total.workspaces === 0 || create.isPending}
          onClick={() => create.mutate()}
        >
          {total ? confirmLabel(draft.action, draft.dryRun, total.bytes, total.workspaces) : "Preview first"}
        </button>
        <span className="muted small">
          Jobs wait for each workspace&apos;s reporter to call in (every 30 minutes while it runs) and expire after 7 days.
        </span>
        {create.isError && !conflict ? <p className="error-message" role="alert">{create.error.message}</p> : null}
      </div>
    </div>
  );
}
