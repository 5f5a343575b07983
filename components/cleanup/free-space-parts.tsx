import { choiceText, type FreeSpaceChoice, type FreeSpaceRow } from "@/lib/cleanup/free-space";
import { freedWhen, trashWaitText, type CleanupAction } from "@/lib/cleanup/freed";
import { previewUnitsText } from "@/lib/cleanup/wording";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import type { WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import { Bytes } from "@/components/ui/bytes";

// The pieces of "Free space here": a recipe's figure with its checkbox and when it frees, and the volume line.

/** How a recipe's run acts and when that frees its space: "to the trash: frees in 7 days". */
export function actionText(row: FreeSpaceRow, action: CleanupAction, withoutTrash: boolean): string {
  const days = row.runs.defaults.trashDays;
  if (action === "trash") return `to the trash: frees ${freedWhen("trash", days)}`;
  if (withoutTrash && row.runs.defaults.action === "trash") return "deleted without the trash: frees now";
  return row.recipe.deleteOnly ? "deleted, never to the trash: frees now" : "deleted: frees now";
}

/** One recipe's figure for one choice, picked with its checkbox (a figure of nothing cannot be picked). */
export function Figure({
  row,
  choice,
  action,
  preview,
  picked,
  onPick,
}: {
  row: FreeSpaceRow;
  choice: FreeSpaceChoice;
  action: CleanupAction;
  preview: CleanupPreview | undefined;
  picked: boolean;
  onPick: (on: boolean) => void;
}) {
  if (!preview) return <span className="muted">…</span>;
  const t = preview.total;
  const when = freedWhen(action, row.runs.defaults.trashDays);
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
        </strong>{" "}
        <span
          className={action === "trash" ? "muted small nowrap" : "small nowrap"}
          data-testid="freed-when"
          title={action === "trash" ? trashWaitText(row.runs.defaults.trashDays) : "Deleted: free at once"}
        >
          {when}
        </span>
        <span className="muted small block">
          {previewUnitsText(t.units, t.bytes)}, {choiceText(row, choice)}
        </span>
      </span>
    </label>
  );
}

export function VolumeLine({ workspace }: { workspace: WorkspaceListRow }) {
  const v = workspace.volume;
  if (!v) return <p className="muted small">The reporter sends no volume size for this workspace.</p>;
  return (
    <p data-testid="free-space-volume">
      Home volume <strong>{v.usePercent}% used</strong>: <Bytes value={v.usedBytes} /> of <Bytes value={v.sizeBytes} />,{" "}
      <Bytes value={v.availBytes} /> free{v.inodes ? <>; inodes {v.inodes.usePercent}% used</> : null}.
    </p>
  );
}
