"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import type { RecipeId } from "@/lib/catalog/recipes";
import {
  FREE_SPACE_CHOICES,
  freeSpaceLabel,
  freeSpaceRows,
  goesForGoodText,
  isEmergency,
  pickedFreedText,
  runAs,
  type FreeSpaceChoice,
  type FreeSpaceRow,
} from "@/lib/cleanup/free-space";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import { newRunHref } from "@/lib/cleanup/links";
import { DEFAULT_EXPIRES_DAYS } from "@/lib/cleanup/types";
import { previewUnitsText } from "@/lib/cleanup/wording";
import { workspaceLabel } from "@/lib/cleanup/workspace-names";
import type { WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import { ApiError } from "@/lib/query/fetch-json";
import { freeSpaceOptions, postRun } from "@/lib/query/cleanup";
import { useQueueRuns } from "@/lib/query/use-cleanup-mutations";
import { Panel } from "@/components/ui/panel";
import { column, DataTable } from "@/components/ui/data-table";
import { ConfirmRunDialog } from "./confirm-run-dialog";
import { FreeSpaceEmergency } from "./free-space-emergency";
import { actionText, Figure, VolumeLine } from "./free-space-parts";
import { runConsequence } from "./run-text";
import { Button } from "@/components/ui/button";

type Picks = Partial<Record<RecipeId, FreeSpaceChoice>>;
type Queued = { recipe: string; id: string };
type Listed = { row: FreeSpaceRow; bytes: number };
const CHOICE_HEADERS: Record<FreeSpaceChoice, string> = {
  defaults: "At the recipe's age",
  minimum: "At the minimum age",
};

/**
 * "Free space here": every recipe's preview on one workspace, with its defaults and with everything past the
 * minimum age, largest first, each saying when it frees its space (now, or once the trash expires), all from one
 * request. The admin picks one figure per recipe and starts those runs; the button states their figure and opens
 * the same second step as any real run (typing the workspace's name above 10 GiB), and each run is confirmed
 * with its own preview total. On a volume nearly full, or when asked, it offers what frees space now (the
 * emergency path). The workspace was picked by name, so it is previewed even when silent.
 */
export function FreeSpaceView({ workspace }: { workspace: WorkspaceListRow }) {
  const rows = useMemo(() => freeSpaceRows(workspace.id), [workspace.id]);
  const query = useQuery(freeSpaceOptions(workspace.id));
  const previewOf = (id: RecipeId, c: FreeSpaceChoice) => query.data?.recipes.find((r) => r.recipe === id)?.[c];
  const [picks, setPicks] = useState<Picks>({});
  const [queued, setQueued] = useState<Queued[]>([]);
  const [asking, setAsking] = useState(false);
  const [askedNow, setAskedNow] = useState(false);
  const [withoutTrash, setWithoutTrash] = useState(false);
  const router = useRouter();
  const label = workspaceLabel(workspace);
  const emergency = askedNow || isEmergency(workspace.volume?.usePercent);
  const deleting = emergency && withoutTrash;
  const actionOf = (row: FreeSpaceRow, c: FreeSpaceChoice) => runAs(row.runs[c], deleting).action!;

  const listed: Listed[] = rows
    .map((row) => ({
      row,
      bytes: Math.max(...FREE_SPACE_CHOICES.map((c) => previewOf(row.recipe.id, c)?.total.bytes ?? 0)),
    }))
    .filter((r) => r.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const empty = query.data ? rows.filter((row) => !listed.some((l) => l.row === row)) : [];
  const trashingBytes = listed
    .filter((l) => l.row.runs.defaults.action === "trash")
    .reduce((s, l) => s + (previewOf(l.row.recipe.id, "defaults")?.total.bytes ?? 0), 0);
  const picked = listed.flatMap(({ row }) => {
    const c = picks[row.recipe.id];
    const preview = c ? previewOf(row.recipe.id, c) : undefined;
    if (!c || !preview) return [];
    const run = runAs(row.runs[c], deleting);
    const { bytes, units } = preview.total;
    return [
      {
        row,
        run,
        title: row.recipe.title,
        action: run.action!,
        trashDays: run.trashDays,
        bytes,
        units: previewUnitsText(units, bytes),
      },
    ];
  });

  // One run per recipe picked, in turn; a refused one stops the rest (the new figures are shown to confirm again).
  const start = useQueueRuns(
    async () => {
      const done: Queued[] = [];
      for (const p of picked) {
        try {
          const run = await postRun({
            ...p.run,
            includeSilent: true,
            confirmBytes: p.bytes,
            expiresDays: DEFAULT_EXPIRES_DAYS,
          });
          done.push({ recipe: p.title, id: run.id });
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) void query.refetch();
          setQueued(done);
          throw err;
        }
      }
      return done;
    },
    {
      onSuccess: (done) => {
        setAsking(false);
        if (done.length === 1) router.push(`/cleanup/runs/${done[0].id}`);
        else {
          setQueued(done);
          setPicks({});
        }
      },
    },
  );
  const ready = picked.length > 0 && !query.isFetching && picked.every((p) => p.bytes > 0);
  const pickedBytes = picked.reduce((sum, p) => sum + p.bytes, 0);
  const consequences = [
    goesForGoodText(picked),
    ...new Set(picked.filter((p) => p.action === "trash").map((p) => runConsequence("trash", p.trashDays))),
    pickedFreedText(picked),
  ].filter(Boolean);

  return (
    <div className="stack">
      <Panel
        title={`What would free space on ${label}`}
        actions={<Link href={`/workspaces/${encodeURIComponent(workspace.id)}`}>Workspace →</Link>}
      >
        <VolumeLine workspace={workspace} />
        {emergency ? (
          <FreeSpaceEmergency
            workspaceId={workspace.id}
            usePercent={workspace.volume?.usePercent ?? null}
            trash={query.data?.trash ?? null}
            trashingBytes={trashingBytes}
            trashDays={rows[0].runs.defaults.trashDays}
            withoutTrash={withoutTrash}
            onWithoutTrash={setWithoutTrash}
          />
        ) : (
          <p className="small">
            What goes to the trash frees its space only once the trash expires.{" "}
            <Button size="small" data-testid="ask-free-now" onClick={() => setAskedNow(true)}>
              Free space now…
            </Button>
          </p>
        )}
        <p className="muted small">
          Each recipe&apos;s preview on this workspace, from its latest report: with the recipe&apos;s own age, and with
          everything not modified in the last day. Pick one figure per recipe; each becomes a run of its own.
        </p>
        <DataTable
          data={listed}
          columns={[
            column<Listed>("recipe", "Recipe", ({ row }) => (
              <>
                <div className="cell-main">{row.recipe.title}</div>
                <div className="muted small">
                  {actionText(row, actionOf(row, "defaults"), deleting)} ·{" "}
                  <Link href={newRunHref({ recipe: row.recipe.id, workspace: workspace.id })}>Adjust…</Link>
                </div>
              </>
            )),
            ...FREE_SPACE_CHOICES.map((c) =>
              column<Listed>(
                c,
                CHOICE_HEADERS[c],
                ({ row }) => (
                  <Figure
                    row={row}
                    choice={c}
                    action={actionOf(row, c)}
                    preview={previewOf(row.recipe.id, c)}
                    picked={picks[row.recipe.id] === c}
                    onPick={(on) => setPicks({ ...picks, [row.recipe.id]: on ? c : undefined })}
                  />
                ),
                { className: "num" },
              ),
            ),
          ]}
          rowId={({ row }) => row.recipe.id}
          testId="free-space"
          stacked={FREE_SPACE_CHOICES.length}
          rowProps={({ row }) => ({ "data-recipe": row.recipe.id })}
        />
        {query.isPending ? <p className="muted small">Previewing {rows.length} recipes…</p> : null}
        {query.data && listed.length === 0 ? (
          <p className="empty">
            No recipe finds anything to free here: look at the largest roots on the workspace page.
          </p>
        ) : null}
        {empty.length ? (
          <p className="muted small">Nothing to free with: {empty.map((r) => r.recipe.title).join(", ")}.</p>
        ) : null}
        {query.isError ? (
          <p className="error-message" role="alert">
            The previews failed: {query.error.message}
          </p>
        ) : null}
      </Panel>
      <div className="row">
        <Button
          variant="primary"
          data-testid="confirm-free"
          disabled={!ready}
          pending={start.isPending}
          onClick={() => setAsking(true)}
        >
          {freeSpaceLabel(picked, label)}
        </Button>
        {picked.length ? (
          <span className="small" data-testid="picked-freed">
            {pickedFreedText(picked)}
          </span>
        ) : null}
        {asking && ready ? (
          <ConfirmRunDialog
            title={freeSpaceLabel(picked, label)}
            scope={label}
            consequence={consequences.join(" ")}
            gate={confirmGate({ dryRun: false, bytes: pickedBytes, workspaces: 1 }, workspace.name)}
            pending={start.isPending}
            error={start.isError ? start.error.message : null}
            onConfirm={() => start.mutate()}
            onClose={() => setAsking(false)}
          />
        ) : null}
        <span className="muted small">
          Jobs wait for the workspace&apos;s reporter to call in and expire after {DEFAULT_EXPIRES_DAYS} days.
        </span>
        {start.isError && !asking ? (
          <p className="error-message" role="alert">
            {start.error.message}
          </p>
        ) : null}
      </div>
      {queued.length ? (
        <p data-testid="free-space-queued">
          Queued:{" "}
          {queued.map((q, n) => (
            <span key={q.id}>
              {n ? ", " : ""}
              <Link href={`/cleanup/runs/${q.id}`}>{q.recipe}</Link>
            </span>
          ))}
          .
        </p>
      ) : null}
    </div>
  );
}
