"use client";

import { addDays } from "date-fns";
import type { TrashEntry } from "@/lib/db/queries/owner-cleanup";
import { RECIPES } from "@/lib/catalog/recipes";
import { formatCountOf } from "@/lib/format/numbers";
import { useOwnerRestore } from "@/lib/query/use-owner-mutations";
import { Bytes } from "@/components/ui/bytes";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/time";

const title = (recipe: string | null) => RECIPES.find((r) => r.id === recipe)?.title ?? recipe ?? "Cleanup";

function TrashItem({ entry, workspace }: { entry: TrashEntry; workspace: string }) {
  const restore = useOwnerRestore();
  const until = addDays(new Date(entry.finishedAt), entry.trashDays);
  const queued = restore.data !== undefined || entry.restore !== null;
  return (
    <li className="stacked" data-testid="trash-entry">
      <div className="row">
        <strong className="grow">
          {title(entry.recipe)} on {workspace}
        </strong>
        <span>
          <Bytes value={entry.bytes} /> · {formatCountOf(entry.units, "unit")}
        </span>
        <Button size="small" pending={restore.isPending} disabled={queued} onClick={() => restore.mutate(entry.jobId)}>
          {queued ? `Restore ${entry.restore ?? "queued"}` : "Restore"}
        </Button>
      </div>
      <span className="small muted">
        Trashed <RelativeTime value={entry.finishedAt} /> by {entry.createdBy}; emptied <RelativeTime value={until} />.
      </span>
      {restore.error ? (
        <p className="error-message" role="alert">
          {restore.error.message}
        </p>
      ) : null}
    </li>
  );
}

/** What cleanups moved to the trash on the owner's workspaces, each restorable until its trash is emptied. */
export function MyTrash({ trash, names }: { trash: TrashEntry[]; names: Map<string, string> }) {
  if (trash.length === 0) return <p className="small muted">Your trash is empty.</p>;
  return (
    <ul className="list" data-testid="my-trash">
      {trash.map((e) => (
        <TrashItem key={e.jobId} entry={e} workspace={names.get(e.workspaceId) ?? e.workspaceId} />
      ))}
    </ul>
  );
}
