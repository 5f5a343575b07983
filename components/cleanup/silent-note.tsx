import type { CleanupPreview } from "@/lib/db/queries/cleanup-preview";
import { formatCountOf } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { CheckField } from "@/components/ui/field";

/**
 * The preview's silent workspaces: what they hold and that they are left out (their jobs would wait for a
 * reporter that is away), with the choice to take them in when the form offers it.
 */
export function SilentNote({
  silent,
  onInclude,
}: {
  silent: CleanupPreview["silent"];
  onInclude?: (include: boolean) => void;
}) {
  if (silent.count === 0) return null;
  const names = silent.workspaces
    .slice(0, 5)
    .map((w) => `${w.owner}/${w.name}`)
    .join(", ");
  return (
    <div className="notice warn small stack tight" data-testid="silent-workspaces">
      <span>
        <strong>{formatCountOf(silent.count, "silent workspace")}</strong> (no report for over{" "}
        {formatCountOf(silent.hours, "hour")}) {silent.count === 1 ? "holds" : "hold"} <Bytes value={silent.bytes} /> of
        this: {names}
        {silent.count > 5 ? ", …" : ""}.{" "}
        {silent.included
          ? "They are in the run: their jobs wait until their reporters call in again, or expire."
          : "They are left out: their jobs would wait for a reporter that is away."}
      </span>
      {onInclude ? (
        <CheckField
          label="Include silent workspaces"
          checked={silent.included}
          onChecked={onInclude}
          className="small"
        />
      ) : null}
    </div>
  );
}
