import Link from "next/link";
import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { previewUnitsText } from "@/lib/cleanup/wording";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";

/** What a run would free: in total, per workspace, and the workspaces whose reporter sends no usage. */
export function PreviewTable({ preview }: { preview: CleanupPreview }) {
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
      {preview.workspaces.length ? (
        <div className="table-wrap" style={{ maxHeight: 360, overflow: "auto" }}>
          <table className="table" data-testid="preview-workspaces">
            <thead>
              <tr>
                <th>Workspace</th>
                <th>Roots</th>
                <th className="num">Units</th>
                <th className="num">Frees</th>
              </tr>
            </thead>
            <tbody>
              {preview.workspaces.map((w) => (
                <tr key={w.workspaceId}>
                  <td>
                    <Link href={`/workspaces/${encodeURIComponent(w.workspaceId)}`}>
                      {w.owner}/{w.name}
                    </Link>
                  </td>
                  <td className="muted small">{w.roots.join(", ")}</td>
                  <td className="num">
                    {preview.unknown
                      ? "—"
                      : w.units === 0 && w.bytes > 0
                        ? previewUnitsText(w.units, w.bytes)
                        : formatCount(w.units)}
                  </td>
                  <td className="num">{preview.unknown ? "—" : <Bytes value={w.bytes} estimate={w.estimate} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {preview.truncated ? (
            <p className="muted small">The {preview.workspaces.length} largest are listed; the total counts all.</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
