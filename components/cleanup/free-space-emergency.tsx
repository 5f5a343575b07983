"use client";

import { formatCountOf } from "@/lib/format/numbers";
import { EMERGENCY_USE_PERCENT } from "@/lib/cleanup/free-space";
import { Bytes } from "@/components/ui/bytes";
import { EmptyTrash } from "./empty-trash";

/**
 * The emergency path of "Free space here", on a volume at EMERGENCY_USE_PERCENT or more (or when the admin asks):
 * what a run moves to the trash stays on this volume until the trash expires, so the two ways to free space now
 * are stated with their figures: delete without the trash (the recipes that trash delete instead; their
 * confirmation names what goes and says it cannot be undone), and empty the trash that earlier runs filled.
 */
export function FreeSpaceEmergency({
  workspaceId,
  usePercent,
  trash,
  trashingBytes,
  trashDays,
  withoutTrash,
  onWithoutTrash,
}: {
  workspaceId: string;
  usePercent: number | null;
  trash: { bytes: number } | null;
  /** What the recipes that trash free with their defaults: free now only when deleted without the trash. */
  trashingBytes: number;
  trashDays: number;
  withoutTrash: boolean;
  onWithoutTrash: (on: boolean) => void;
}) {
  const full = usePercent !== null && usePercent >= EMERGENCY_USE_PERCENT;
  return (
    <div className="stack snug" data-testid="free-space-emergency">
      <div className="notice warn" role="status">
        <p className="small">
          <strong>
            {full ? `The volume is ${usePercent}% used: free space now.` : "What frees space now, as you asked."}
          </strong>{" "}
          What a run moves to the trash stays on this volume for {formatCountOf(trashDays, "day")}: it frees nothing
          until the trash expires. Two ways free space at once:
        </p>
        <ul className="small">
          <li data-testid="emergency-delete">
            <label className="field" style={{ display: "inline-flex", color: "inherit" }}>
              <input
                type="checkbox"
                checked={withoutTrash}
                disabled={trashingBytes === 0}
                onChange={(e) => onWithoutTrash(e.target.checked)}
              />
              <span>
                <strong>Delete without the trash</strong>: the recipes that trash (conversations) delete instead,{" "}
                <strong>
                  <Bytes value={trashingBytes} /> now
                </strong>{" "}
                at their own age. They cannot be restored; the confirmation names what goes.
              </span>
            </label>
          </li>
          <li data-testid="emergency-trash">
            <strong>Empty the trash first</strong>:{" "}
            {trash ? (
              <>
                <strong>
                  <Bytes value={trash.bytes} /> now
                </strong>{" "}
                (what earlier runs trashed, as of the latest report), below.
              </>
            ) : (
              "the latest report lists no trash on this workspace."
            )}
          </li>
        </ul>
      </div>
      <EmptyTrash workspaceId={workspaceId} trash={trash} />
    </div>
  );
}
