"use client";

import { useQueries } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import type { RecipeId } from "@/lib/catalog/recipes";
import {
  choiceText,
  freeSpaceLabel,
  freeSpaceRows,
  type FreeSpaceChoice,
  type FreeSpaceRow,
} from "@/lib/cleanup/free-space";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import { newRunHref } from "@/lib/cleanup/links";
import { DEFAULT_EXPIRES_DAYS } from "@/lib/cleanup/types";
import { previewUnitsText } from "@/lib/cleanup/wording";
import { workspaceLabel } from "@/lib/cleanup/workspace-names";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import type { WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import { ApiError } from "@/lib/query/fetch-json";
import { postRun, previewOptions } from "@/lib/query/cleanup";
import { useQueueRuns } from "@/lib/query/use-cleanup-mutations";
import { Bytes } from "@/components/ui/bytes";
import { Panel } from "@/components/ui/panel";
import { column, DataTable } from "@/components/ui/data-table";
import { ConfirmRunDialog } from "./confirm-run-dialog";
import { runConsequence } from "./run-text";
import { Button } from "@/components/ui/button";

const CHOICES: readonly FreeSpaceChoice[] = ["defaults", "minimum"];
type Picks = Partial<Record<RecipeId, FreeSpaceChoice>>;
type Queued = { recipe: string; id: string };
type Listed = { row: FreeSpaceRow; i: number };
const CHOICE_HEADERS: Record<FreeSpaceChoice, string> = {
  defaults: "At the recipe's age",
  minimum: "At the minimum age",
};

/**
 * "Free space here": every recipe's preview on one workspace, with its defaults and with everything past the
 * minimum age, largest first. The admin picks one figure per recipe and starts those runs; the button states
 * their figure and opens the same second step as any real run (typing the workspace's name above 10 GiB), and
 * each run is confirmed with its own preview total. The workspace was picked by name, so it is previewed even
 * when silent (the preview's table flags it).
 */
export function FreeSpaceView({ workspace }: { workspace: WorkspaceListRow }) {
  const rows = useMemo(() => freeSpaceRows(workspace.id), [workspace.id]);
  const previews = useQueries({
    queries: rows.flatMap((r) => CHOICES.map((c) => previewOptions({ ...r.runs[c], includeSilent: true }))),
  });
  const previewOf = (i: number, c: FreeSpaceChoice) => previews[i * CHOICES.length + CHOICES.indexOf(c)];
  const [picks, setPicks] = useState<Picks>({});
  const [queued, setQueued] = useState<Queued[]>([]);
  const [asking, setAsking] = useState(false);
  const router = useRouter();
  const label = workspaceLabel(workspace);

  const indexed = rows.map((row, i) => ({
    row,
    i,
    bytes: Math.max(...CHOICES.map((c) => previewOf(i, c).data?.total.bytes ?? 0)),
  }));
  const loading = previews.some((p) => p.isPending);
  const listed = indexed.filter((r) => r.bytes > 0).sort((a, b) => b.bytes - a.bytes);
  const empty = loading ? [] : indexed.filter((r) => r.bytes === 0 && !previewOf(r.i, "defaults").isError);
  const picked = listed.flatMap(({ row, i }) => {
    const c = picks[row.recipe.id];
    const p = c ? previewOf(i, c) : null;
    return c && p?.data
      ? [{ row, choice: c, query: p, preview: p.data, action: row.runs[c].action!, bytes: p.data.total.bytes }]
      : [];
  });

  // One run per recipe picked, in turn; a refused one stops the rest (its new figure is shown to confirm again).
  const start = useQueueRuns(
    async () => {
      const done: Queued[] = [];
      for (const p of picked) {
        try {
          const run = await postRun({
            ...p.row.runs[p.choice],
            includeSilent: true,
            confirmBytes: p.bytes,
            expiresDays: DEFAULT_EXPIRES_DAYS,
          });
          done.push({ recipe: p.row.recipe.title, id: run.id });
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) void p.query.refetch();
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
  const ready = picked.length > 0 && picked.every((p) => !p.query.isFetching && p.bytes > 0);
  const pickedBytes = picked.reduce((sum, p) => sum + p.bytes, 0);
  const consequences = [
    ...new Set(picked.map((p) => runConsequence(p.action, p.row.runs[p.choice].trashDays, p.row.recipe.id))),
  ];

  return (
    <div className="stack">
      <Panel
        title={`What would free space on ${label}`}
        actions={<Link href={`/workspaces/${encodeURIComponent(workspace.id)}`}>Workspace →</Link>}
      >
        <VolumeLine workspace={workspace} />
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
                  {row.runs.defaults.action === "trash"
                    ? "to the trash"
                    : row.recipe.deleteOnly
                      ? "deleted, never to the trash"
                      : "deleted"}{" "}
                  · <Link href={newRunHref({ recipe: row.recipe.id, workspace: workspace.id })}>Adjust…</Link>
                </div>
              </>
            )),
            ...CHOICES.map((c) =>
              column<Listed>(
                c,
                CHOICE_HEADERS[c],
                ({ row, i }) => (
                  <Figure
                    row={row}
                    choice={c}
                    preview={previewOf(i, c).data}
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
          rowProps={({ row }) => ({ "data-recipe": row.recipe.id })}
        />
        {loading ? <p className="muted small">Previewing {rows.length} recipes…</p> : null}
        {!loading && listed.length === 0 ? (
          <p className="empty">
            No recipe finds anything to free here: look at the largest roots on the workspace page.
          </p>
        ) : null}
        {empty.length ? (
          <p className="muted small">Nothing to free with: {empty.map((r) => r.row.recipe.title).join(", ")}.</p>
        ) : null}
        {previews.some((p) => p.isError) ? (
          <p className="error-message" role="alert">
            Some previews failed: {previews.find((p) => p.isError)!.error!.message}
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

/** One recipe's figure for one choice, picked with its checkbox (a figure of nothing cannot be picked). */
function Figure({
  row,
  choice,
  preview,
  picked,
  onPick,
}: {
  row: FreeSpaceRow;
  choice: FreeSpaceChoice;
  preview: CleanupPreview | undefined;
  picked: boolean;
  onPick: (on: boolean) => void;
}) {
  if (!preview) return <span className="muted">…</span>;
  const t = preview.total;
  return (
    <label className="field" style={{ justifyContent: "flex-end", alignItems: "flex-start", color: "inherit" }}>
      <input
        type="checkbox"
        aria-label={`${row.recipe.title}, ${choiceText(row, choice)}`}
        checked={picked}
        disabled={t.bytes === 0}
        onChange={(e) => onPick(e.target.checked)}
      />
      <span>
        <strong className="nowrap">
          <Bytes value={t.bytes} estimate={t.estimate} />
        </strong>
        <span className="muted small block">
          {previewUnitsText(t.units, t.bytes)}, {choiceText(row, choice)}
        </span>
      </span>
    </label>
  );
}

function VolumeLine({ workspace }: { workspace: WorkspaceListRow }) {
  const v = workspace.volume;
  if (!v) return <p className="muted small">The reporter sends no volume size for this workspace.</p>;
  return (
    <p data-testid="free-space-volume">
      Home volume <strong>{v.usePercent}% used</strong>: <Bytes value={v.usedBytes} /> of <Bytes value={v.sizeBytes} />,{" "}
      <Bytes value={v.availBytes} /> free{v.inodes ? <>; inodes {v.inodes.usePercent}% used</> : null}.
    </p>
  );
}
