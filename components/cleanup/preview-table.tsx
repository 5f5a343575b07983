import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { previewUnitsText } from "@/lib/cleanup/wording";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { SilentNote } from "./silent-note";

/** Per workspace; a custom target's figures are unknown until its results ("—"). */
const previewColumns = (unknown: boolean): ColumnDef<CleanupPreview["workspaces"][number]>[] => [
  column("workspace", "Workspace", (w) => (
    <>
      <Link href={`/workspaces/${encodeURIComponent(w.workspaceId)}`}>
        {w.owner}/{w.name}
      </Link>
      {w.silent ? (
        <>
          {" "}
          <span className="badge warning">silent</span>
        </>
      ) : null}
    </>
  )),
  column("roots", "Roots", (w) => w.roots.join(", "), { cellClassName: "muted small" }),
  column(
    "units",
    "Units",
    (w) => (unknown ? "—" : w.units === 0 && w.bytes > 0 ? previewUnitsText(w.units, w.bytes) : formatCount(w.units)),
    { className: "num" },
  ),
  column("frees", "Frees", (w) => (unknown ? "—" : <Bytes value={w.bytes} estimate={w.estimate} />), {
    className: "num",
  }),
];

/**
 * What a run would free: in total, per workspace, the silent workspaces (left out unless `onIncludeSilent` lets
 * the admin take them in), and the workspaces whose reporter sends no usage.
 */
export function PreviewTable({
  preview,
  onIncludeSilent,
}: {
  preview: CleanupPreview;
  onIncludeSilent?: (include: boolean) => void;
}) {
  const t = preview.total;
  return (
    <div className="stack roomy">
      <p data-testid="preview-total">
        {preview.unknown ? (
          <>
            <strong>Size unknown</strong> in {formatCountOf(t.workspaces, "workspace")} with the root
          </>
        ) : (
          <>
            <strong>
              <Bytes value={t.bytes} />
            </strong>{" "}
            in {previewUnitsText(t.units, t.bytes)} from {formatCountOf(t.workspaces, "workspace")}
          </>
        )}
        {t.estimate
          ? " (an estimate: a parameter falls inside an age step of the reports, whose share was interpolated)"
          : ""}
        .
        {t.protectedUnits ? (
          <span className="muted">
            {" "}
            {formatCountOf(t.protectedUnits, "unit")} (<Bytes value={t.protectedBytes} />){" "}
            {t.protectedUnits === 1 ? "is" : "are"} protected by their owners and stay.
          </span>
        ) : null}
        {preview.zeroWorkspaces ? (
          <span className="muted">
            {" "}
            {preview.zeroWorkspaces === 1
              ? "1 workspace has"
              : `${formatCount(preview.zeroWorkspaces)} workspaces have`}{" "}
            nothing these parameters select.
          </span>
        ) : null}
        {preview.unknown ? (
          <span className="muted">
            {" "}
            A custom target has no usage in reports: every workspace with the root gets a job; figures come with the
            results.
          </span>
        ) : null}
      </p>
      <SilentNote silent={preview.silent} onInclude={onIncludeSilent} />
      {preview.withoutUsage.count ? (
        <p className="muted small" data-testid="without-usage">
          {formatCountOf(preview.withoutUsage.count, "workspace")} in scope{" "}
          {preview.withoutUsage.count === 1 ? "has" : "have"} no usage data (their reporter is older than 0.3 and cannot
          run cleanups; no job is queued for them):{" "}
          {preview.withoutUsage.workspaces
            .slice(0, 10)
            .map((w) => `${w.owner}/${w.name}`)
            .join(", ")}
          {preview.withoutUsage.count > 10 ? ", …" : ""}
        </p>
      ) : null}
      {preview.outdated.count ? (
        <p className="muted small" data-testid="outdated-reporter">
          {formatCountOf(preview.outdated.count, "workspace")} in scope {preview.outdated.count === 1 ? "is" : "are"}{" "}
          left out, no job is queued for {preview.outdated.count === 1 ? "it" : "them"}:{" "}
          {preview.outdated.workspaces
            .slice(0, 10)
            .map((w) => `${w.owner}/${w.name} (${w.reason})`)
            .join("; ")}
          {preview.outdated.count > 10 ? "; …" : ""}
        </p>
      ) : null}
      {preview.workspaces.length ? (
        <DataTable
          data={preview.workspaces}
          columns={previewColumns(preview.unknown)}
          rowId={(w) => w.workspaceId}
          testId="preview-workspaces"
          stacked={3}
          wrapStyle={{ maxHeight: 360, overflow: "auto" }}
        >
          {preview.truncated ? (
            <p className="muted small">The {preview.workspaces.length} largest are listed; the total counts all.</p>
          ) : null}
        </DataTable>
      ) : null}
    </div>
  );
}
