"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { TRUNCATE_CONSEQUENCE, truncateRefusal } from "@/lib/catalog/truncatable";
import { confirmGate } from "@/lib/cleanup/confirm-gate";
import type { WorkspaceRef } from "@/lib/findings/finding";
import { formatBytes } from "@/lib/format/bytes";
import { useTruncateLog } from "@/lib/query/use-cleanup-mutations";
import { workspaceDetailOptions } from "@/lib/query/workspaces";
import { useIsAdmin } from "@/components/auth/caller-context";
import { ConfirmRunDialog } from "@/components/cleanup/confirm-run-dialog";
import { truncatedFile, truncatedFileInHome } from "@/components/cleanup/run-text";
import { Button } from "@/components/ui/button";

/**
 * "Truncate" on a growing log (admins; never on a database). Nothing can bring an emptied file back, so the
 * button only opens a dialog that states the file and its size; the request goes when the dialog's own button
 * is pressed (over 10 GiB, once the figure is typed), and its run opens. The dialog names the file where it
 * is in the home (~/.codex/log/codex-tui.log), from the root's place in the workspace's latest report; by its
 * root's key only when that cannot be read.
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
  const queryClient = useQueryClient();
  /** The file as the open dialog names it; null while closed. */
  const [asking, setAsking] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const truncate = useTruncateLog({ onSuccess: ({ id }) => router.push(`/cleanup/runs/${id}`) });
  if (!useIsAdmin() || !rootKey || !path || truncateRefusal(path)) return null;
  const ask = async () => {
    setOpening(true);
    const root = await queryClient
      .fetchQuery(workspaceDetailOptions(workspace.id, { range: "7d" }))
      .then((d) => d.roots.find((r) => r.key === rootKey))
      .catch(() => undefined);
    setOpening(false);
    setAsking(root ? truncatedFileInHome(root.path, path) : truncatedFile({ rootKey, path }));
  };
  return (
    <>
      <Button size="small" data-testid="truncate-log" pending={opening} onClick={() => void ask()}>
        Truncate
      </Button>
      {asking !== null ? (
        <ConfirmRunDialog
          title={`Truncate ${asking}, ${formatBytes(bytes)}`}
          scope={`${workspace.owner}/${workspace.name}`}
          consequence={TRUNCATE_CONSEQUENCE}
          gate={confirmGate({ dryRun: false, bytes, workspaces: 1 })}
          pending={truncate.isPending}
          error={truncate.isError ? truncate.error.message : null}
          onConfirm={() => truncate.mutate({ workspaceId: workspace.id, rootKey, path, confirmBytes: bytes })}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </>
  );
}
