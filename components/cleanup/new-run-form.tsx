"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useDeferredValue, useState } from "react";
import { RECIPES, deleteOnly, type RecipeId } from "@/lib/catalog/recipes";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import { pickedFreedText } from "@/lib/cleanup/free-space";
import { recipesForAgent } from "@/lib/cleanup/links";
import { draftOnlyDeleted, runRequestOf, defaultDraft, type RunDraft } from "@/lib/cleanup/run-draft";
import { DEFAULT_EXPIRES_DAYS } from "@/lib/cleanup/types";
import { workspaceLabel } from "@/lib/cleanup/workspace-names";
import { ApiError } from "@/lib/query/fetch-json";
import { previewOptions } from "@/lib/query/cleanup";
import { useCreateRun } from "@/lib/query/use-cleanup-mutations";
import { parseNewRunSearchParams } from "@/lib/validations/cleanup";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { Skeleton } from "@/components/ui/states";
import { FreeSpaceView } from "./free-space-view";
import { ConfirmRunDialog } from "./confirm-run-dialog";
import { KeptNote } from "./kept-note";
import { OverlapWarning } from "./overlap-warning";
import { PreviewTable } from "./preview-table";
import { CUSTOM_IN_CACHE_TEXT, DELETE_ONLY_TEXT, confirmLabel, runConsequence, scopeText } from "./run-text";
import { RunFields } from "./run-fields";
import { useScopeLookup } from "./use-scope-lookup";
import { useWorkspaceRef } from "./use-workspace-ref";
import { Button } from "@/components/ui/button";

/**
 * /cleanup/new: recipe, parameters and scope from the URL, the preview per workspace, and the confirmation.
 * Opened for a workspace, its scope shows the workspace's name; with free=1, every recipe's preview there.
 */
export function NewRunForm() {
  const state = parseNewRunSearchParams(useSearchParams());
  const agentRecipes = state.agent ? recipesForAgent(state.agent) : [];
  const recipe = state.recipe ?? agentRecipes[0] ?? RECIPES[0].id;
  if (!state.workspace) return <RunForm initial={defaultDraft(recipe)} recipes={agentRecipes} />;
  return <ForWorkspace id={state.workspace} free={state.free === true} recipe={recipe} recipes={agentRecipes} />;
}

function ForWorkspace({
  id,
  free,
  recipe,
  recipes,
}: {
  id: string;
  free: boolean;
  recipe: RecipeId;
  recipes: RecipeId[];
}) {
  const { query, workspace } = useWorkspaceRef(id);
  if (query.isPending) return <Skeleton height={200} />;
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  if (free) {
    return workspace ? (
      <FreeSpaceView workspace={workspace} />
    ) : (
      <p className="error-message" role="alert">
        No workspace has the id {id}.
      </p>
    );
  }
  // An unknown id stays in the field as given, where the scope's check says that nothing has it.
  return <RunForm initial={defaultDraft(recipe, workspace ? workspaceLabel(workspace) : id)} recipes={recipes} />;
}

function RunForm({ initial, recipes }: { initial: RunDraft; recipes: RecipeId[] }) {
  const [draft, setDraft] = useState(initial);
  const lookup = useScopeLookup(draft);
  const built = runRequestOf(draft, lookup.resolve);
  const [includeSilent, setIncludeSilent] = useState(false);
  const deferred = useDeferredValue(built.ok ? { ...built.request, includeSilent } : null);
  const preview = useQuery(previewOptions(deferred));
  const router = useRouter();
  const [conflict, setConflict] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const create = useCreateRun({
    onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`),
    onError: (err) => {
      // The fleet changed since the preview: show the new figure and ask again.
      if (err instanceof ApiError && err.status === 409) {
        setConflict(err.message);
        setAsking(false);
        void preview.refetch();
      }
    },
  });
  const ready = built.ok && preview.isSuccess && !preview.isPlaceholderData && !preview.isFetching;
  const total = preview.data?.total;
  // A request the server's schema refuses (a glob that could leave its root) is the form's problem to show, not an outage.
  const refusal = preview.error instanceof ApiError && preview.error.status === 422 ? preview.error.message : null;
  const listed = preview.data?.workspaces ?? [];
  const one = total?.workspaces === 1 && listed[0] ? `${listed[0].owner}/${listed[0].name}` : undefined;
  const gate = confirmGate({ dryRun: draft.dryRun, bytes: total?.bytes ?? 0, workspaces: total?.workspaces ?? 0 }, one);
  const send = () =>
    built.ok &&
    create.mutate({ ...built.request, includeSilent, confirmBytes: total!.bytes, expiresDays: DEFAULT_EXPIRES_DAYS });
  const label = total && !refusal ? confirmLabel(draft.action, draft.dryRun, total, preview.data?.unknown) : null;
  return (
    <div className="stack">
      <Panel title="What to clean up">
        <RunFields
          draft={draft}
          onChange={(d) => {
            setDraft(d);
            setConflict(null);
          }}
          recipes={recipes}
          completion={lookup.completion}
          workspacesByName
        />
        {built.ok ? null : (
          <p className="muted" data-testid="draft-problem">
            {built.problem}
          </p>
        )}
        {refusal ? (
          <p className="error-message" role="alert" data-testid="refusal">
            The dashboard refuses this run: {refusal}
          </p>
        ) : null}
      </Panel>
      <Panel title="Preview" actions={<span className="muted small">from each workspace&apos;s latest report</span>}>
        {preview.isPending && deferred ? <Skeleton height={120} /> : null}
        {preview.isError && !refusal ? (
          <ErrorPanel error={preview.error} onRetry={() => void preview.refetch()} />
        ) : null}
        {preview.data && !refusal ? <PreviewTable preview={preview.data} onIncludeSilent={setIncludeSilent} /> : null}
        {preview.data && !refusal ? <OverlapWarning runs={preview.data.overlapping} /> : null}
        {preview.data && !refusal ? <KeptNote kept={preview.data.kept} /> : null}
        {draft.target === "recipe" && deleteOnly(draft.recipe) ? (
          <p className="muted" data-testid="delete-only">
            {DELETE_ONLY_TEXT}
          </p>
        ) : draftOnlyDeleted(draft) ? (
          <p className="muted" data-testid="delete-only">
            {CUSTOM_IN_CACHE_TEXT}
          </p>
        ) : null}
      </Panel>
      <div className="row">
        {conflict ? (
          <p className="error-message" role="alert">
            {conflict}
          </p>
        ) : null}
        <Button
          variant="primary"
          data-testid="confirm-run"
          disabled={!ready || !total || total.workspaces === 0}
          pending={create.isPending}
          onClick={() => (gate.kind === "none" ? send() : setAsking(true))}
        >
          {label ?? "Preview first"}
        </Button>
        {label && total && !draft.dryRun && !preview.data?.unknown ? (
          <span className="small" data-testid="run-freed">
            {pickedFreedText([{ ...total, title: "", units: "", action: draft.action, trashDays: draft.trashDays }])}
          </span>
        ) : null}
        {asking && label && built.ok && preview.data ? (
          <ConfirmRunDialog
            title={label}
            scope={scopeText(
              built.request.scope,
              Object.fromEntries(listed.map((w) => [w.workspaceId, { name: w.name, owner: w.owner }])),
            )}
            consequence={runConsequence(draft.action, draft.trashDays, draft.target === "recipe" ? draft.recipe : null)}
            gate={gate}
            overlapping={preview.data.overlapping}
            pending={create.isPending}
            error={create.isError && !conflict ? create.error.message : null}
            onConfirm={send}
            onClose={() => setAsking(false)}
          />
        ) : null}
        <span className="muted small">
          Jobs wait for each workspace&apos;s reporter to call in (every 30 minutes while it runs) and expire after{" "}
          {DEFAULT_EXPIRES_DAYS} days.
        </span>
        {create.isError && !conflict ? (
          <p className="error-message" role="alert">
            {create.error.message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
