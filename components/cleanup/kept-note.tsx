import type { KeepRow } from "@/lib/db/queries/owner-cleanup";

/** The owners' Keeps on the previewed workspaces: the jobs skip them, so the run frees at most the figure shown. */
export function KeptNote({ kept }: { kept: KeepRow[] }) {
  if (kept.length === 0) return null;
  return (
    <p className="notice small" role="status" data-testid="preview-kept">
      <strong>Kept by their owners</strong> (skipped by every job until they expire):{" "}
      {kept.map((k) => `${k.owner}/${k.workspaceName}: ${k.path}`).join("; ")}.
    </p>
  );
}
