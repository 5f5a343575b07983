// When a cleanup's space is really free. A unit deleted is free at once; a unit moved to the trash is not: the
// trash is a folder in the home (~/.coder-modules/coder/storage-reporter/trash/) and a move into it is a rename,
// which the reporter makes only on the unit's own file system (it refuses to trash across file systems). So what
// a run trashes stays on the same volume until the trash expires, its trash days after the run, or until an admin
// empties the trash. Every figure of space a cleanup frees is split by this rule. Plain code: the browser uses it.
import { formatCountOf } from "@/lib/format/numbers";
import { TRASH_DAYS } from "./defaults";

export type CleanupAction = "delete" | "trash";

/** Bytes free at once, and bytes free only once the trash expires (`laterDays` after the run). */
export type Freed = { nowBytes: number; laterBytes: number; laterDays: number };

export function freedOf(bytes: number, action: CleanupAction, trashDays: number = TRASH_DAYS.default): Freed {
  return action === "trash"
    ? { nowBytes: 0, laterBytes: bytes, laterDays: trashDays }
    : { nowBytes: bytes, laterBytes: 0, laterDays: trashDays };
}

/** Several figures summed; `laterDays` is the longest wait among those that wait. */
export function sumFreed(parts: readonly Freed[]): Freed {
  const waiting = parts.filter((p) => p.laterBytes > 0);
  return {
    nowBytes: parts.reduce((s, p) => s + p.nowBytes, 0),
    laterBytes: waiting.reduce((s, p) => s + p.laterBytes, 0),
    laterDays: waiting.length ? Math.max(...waiting.map((p) => p.laterDays)) : TRASH_DAYS.default,
  };
}

/** "now", or "in 7 days": when a run of this action frees its space. */
export function freedWhen(action: CleanupAction, trashDays: number = TRASH_DAYS.default): string {
  return action === "trash" ? `in ${formatCountOf(trashDays, "day")}` : "now";
}

/** The why of "in N days", for a note beside the figure. */
export function trashWaitText(trashDays: number = TRASH_DAYS.default): string {
  return (
    `Moved to the trash, which is on the same volume: the space is free when the trash expires, ` +
    `${formatCountOf(trashDays, "day")} after the run, or when an admin empties it.`
  );
}
