"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import { defaultDraft, draftFrom } from "@/lib/cleanup/run-draft";
import { DEFAULT_RUN_AT_MINUTE, DEFAULT_RUN_WEEKDAY } from "@/lib/cleanup/schedule";
import { policyOptions } from "@/lib/query/cleanup";
import { useCreatePolicy, useSavePolicy } from "@/lib/query/use-cleanup-mutations";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { RelativeTime } from "@/components/ui/time";
import { PreviewTable } from "./preview-table";
import { bodyOf, PolicyForm, type PolicyDraft } from "./policy-form";
import { PolicyActions, PolicyStatus } from "./policy-status";
import { PageHeader } from "@/components/ui/page-header";

/** /cleanup/policies/new: saving queues nothing; the policy's page then asks for its figure to be confirmed. */
/** The new-policy form; `recipe` chosen when a page linked here with one (?recipe=). */
export function NewPolicy({ recipe }: { recipe?: RecipeId }) {
  const router = useRouter();
  const create = useCreatePolicy({ onSuccess: ({ policy }) => router.push(`/cleanup/policies/${policy.id}`) });
  const initial: PolicyDraft = {
    name: "",
    schedule: "weekly",
    runAtMinute: DEFAULT_RUN_AT_MINUTE,
    runWeekday: DEFAULT_RUN_WEEKDAY,
    enabled: true,
    run: defaultDraft(recipe ?? RECIPES[0].id),
  };
  return (
    <Panel title="New policy">
      <PolicyForm
        initial={initial}
        onSave={(d, request) => create.mutate(bodyOf(d, request))}
        saving={create.isPending}
        error={create.error?.message ?? null}
        preview
      />
    </Panel>
  );
}

/** /cleanup/policies/[id]: the policy, whether it may act, its next run previewed now; admins confirm, edit, run or delete it. */
export function PolicyView({ id }: { id: string }) {
  const query = useQuery(policyOptions(id));
  const isAdmin = useIsAdmin();
  const save = useSavePolicy(id);
  return (
    <QueryView query={query} height={300}>
      {({ policy, preview, lastRun }) => (
        <div className="stack">
          <PageHeader
            title={policy.name}
            sub={
              <>
                {policy.enabled ? policy.scheduleText : "disabled"} · next run{" "}
                {policy.held ? (
                  "held for a confirmation"
                ) : policy.nextRunAt ? (
                  <RelativeTime value={policy.nextRunAt} />
                ) : (
                  "never by itself"
                )}{" "}
                · last run {policy.lastRunAt ? <RelativeTime value={policy.lastRunAt} /> : "never"} · created by{" "}
                {policy.createdBy}
              </>
            }
            actions={isAdmin ? <PolicyActions policy={policy} preview={preview} /> : null}
          />
          <PolicyStatus policy={policy} lastRun={lastRun} />
          <Panel title="Its next run, if it ran now">
            <PreviewTable preview={preview} />
          </Panel>
          <Panel title="Policy">
            <PolicyForm
              key={policy.updatedAt}
              initial={{
                name: policy.name,
                schedule: policy.schedule,
                runAtMinute: policy.runAtMinute,
                runWeekday: policy.runWeekday,
                enabled: policy.enabled,
                run: draftFrom(policy),
              }}
              onSave={(d, request) => save.mutate(bodyOf(d, request))}
              saving={save.isPending}
              error={save.error?.message ?? null}
              disabled={!isAdmin}
            />
            {isAdmin && !policy.dryRun && policy.confirmed ? (
              <p className="muted small">
                Changing what it removes or how (recipe, parameters, scope, action, dry run) asks for a new
                confirmation.
              </p>
            ) : null}
          </Panel>
        </div>
      )}
    </QueryView>
  );
}
