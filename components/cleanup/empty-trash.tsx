"use client";

import Link from "next/link";
import { useState } from "react";
import { usePurgeTrash } from "@/lib/query/use-cleanup-mutations";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Bytes } from "@/components/ui/bytes";
import { Panel } from "@/components/ui/panel";
import { Button } from "@/components/ui/button";

/**
 * "Empty the trash now" for one workspace (admins). Trash runs move units into the workspace's trash, where they
 * stay restorable until they expire; emptying it removes them for good, so the button first says that and
 * asks again. The result is a run like any other, linked here.
 */
export function EmptyTrash({ workspaceId, trash }: { workspaceId: string; trash: { bytes: number } | null }) {
  const [asking, setAsking] = useState(false);
  const purge = usePurgeTrash(workspaceId, { onSuccess: () => setAsking(false) });
  if (!useIsAdmin()) return null;
  const holds = trash ? (
    <>
      holds <Bytes value={trash.bytes} /> as of the latest report
    </>
  ) : (
    <>does not appear in the latest report</>
  );
  return (
    <Panel title="Cleanup trash">
      <div className="stack snug" data-testid="empty-trash">
        <p className="small">
          The cleanup trash {holds}: units that trash runs moved there, restorable from their run until they expire.
        </p>
        {asking ? (
          <div className="stack snug" role="group" aria-label="Confirm emptying the trash">
            <p className="small">
              <strong>Emptying the trash removes every unit in it for good</strong>: no run&apos;s Restore can bring
              them back. The workspace&apos;s reporter does it when it next calls in.
            </p>
            <div className="row">
              <Button variant="primary" pending={purge.isPending} onClick={() => purge.mutate()}>
                Empty the trash for good
                {trash ? (
                  <>
                    {" "}
                    (<Bytes value={trash.bytes} />)
                  </>
                ) : null}
              </Button>
              <Button onClick={() => setAsking(false)}>Keep it</Button>
            </div>
          </div>
        ) : (
          <div className="row">
            <Button size="small" onClick={() => setAsking(true)}>
              Empty the trash now
            </Button>
            {purge.data ? (
              <span className="small" data-testid="empty-trash-queued">
                Queued: <Link href={`/cleanup/runs/${purge.data.id}`}>the run that empties it</Link>.
              </span>
            ) : null}
          </div>
        )}
        {purge.isError ? (
          <p className="error-message" role="alert">
            {purge.error.message}
          </p>
        ) : null}
      </div>
    </Panel>
  );
}
