"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { TRUNCATE_CONSEQUENCE, truncateRefusal } from "@/lib/catalog/truncatable";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import type { WorkspaceRef } from "@/lib/findings/finding";
import { formatBytes } from "@/lib/format/bytes";
import { useTruncateLog } from "@/lib/query/use-cleanup-mutations";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ConfirmRunDialog } from "@/components/cleanup/confirm-run-dialog";
import { truncatedFile } from "@/components/cleanup/run-text";

/**
 * "Truncate" on a growing log (admins; never on a database). Nothing can bring an emptied file back, so the
 * button only opens a dialog that states the file and its size; the request goes when the dialog's own button
 * is pressed (over 10 GiB, once the figure is typed), and its run opens.
 */
export function TruncateLog({
  workspace,
  rootKey,
  path,
  bytes,
}: {
  workspace: WorkspaceRef;
  rootKey: string | null;
  path: string | null;
  bytes: number;
}) {
  const router = useRouter();
  const [asking, setAsking] = useState(false);
  const truncate = useTruncateLog({ onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`) });
  if (!useIsAdmin() || !rootKey || !path || truncateRefusal(path)) return null;
  return (
    <>
      <button type="button" className="button small" data-testid="truncate-log" onClick={() => setAsking(true)}>
        Truncate
      </button>
      {asking ? (
        <ConfirmRunDialog
          title={`Truncate ${truncatedFile({ rootKey, path })}, ${formatBytes(bytes)}`}
          scope={`${workspace.owner}/${workspace.name}`}
          consequence={TRUNCATE_CONSEQUENCE}
          gate={confirmGate({ dryRun: false, bytes, workspaces: 1 })}
          pending={truncate.isPending}
          error={truncate.isError ? truncate.error.message : null}
          onConfirm={() => truncate.mutate({ workspaceId: workspace.id, rootKey, path, confirmBytes: bytes })}
          onClose={() => setAsking(false)}
        />
      ) : null}
    </>
  );
}
