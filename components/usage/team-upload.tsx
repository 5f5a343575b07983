"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { formatCount } from "@/lib/format/numbers";
import { useUploadTeams } from "@/lib/query/use-admin-mutations";
import type { TeamUpload } from "@/lib/services/team-upload";

/** Unknown owners named: enough to spot a typo, not a page of them. */
const SHOWN = 20;

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** What the upload stored, and the owners no workspace here has (stored too: their workspaces may report later). */
function Outcome({ done }: { done: TeamUpload }) {
  return (
    <div role="status" data-testid="team-upload-outcome">
      <p>
        Stored {plural(done.teams, "team", "teams")} with {plural(done.owners, "owner", "owners")}: the usage by group
        counts them from now on.
      </p>
      {done.unknownOwners.length > 0 ? (
        <p className="notice warn small">
          No workspace here belongs to {plural(done.unknownOwners.length, "owner", "owners")} of the file, kept for when
          they report: {done.unknownOwners.slice(0, SHOWN).join(", ")}
          {done.unknownOwners.length > SHOWN ? ` and ${formatCount(done.unknownOwners.length - SHOWN)} more` : ""}.
        </p>
      ) : null}
    </div>
  );
}

/**
 * For a dashboard without a Coder sync (or to add teams Coder lacks): an admin uploads a CSV of owners and teams,
 * which replaces the teams uploaded before; Coder's own groups stay as the sync keeps them. A malformed file is
 * refused whole, with the reason, and changes nothing.
 */
export function TeamUploadPanel() {
  const [file, setFile] = useState<File | null>(null);
  const upload = useUploadTeams();
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (file) upload.mutate(await file.text());
  };
  return (
    <Panel title="Teams from a file">
      <form onSubmit={submit} className="stack" aria-label="Upload teams">
        <p className="muted small">
          A CSV with a header row <code>owner,team</code> and one row per owner and team (an owner may be in several
          teams). It replaces the teams uploaded before; groups synced from Coder stay.
        </p>
        <div className="row">
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="Owner to team CSV"
            onChange={(e) => {
              upload.reset();
              setFile(e.target.files?.[0] ?? null);
            }}
          />
          <Button type="submit" disabled={!file || upload.isPending}>
            {upload.isPending ? "Uploading…" : "Upload"}
          </Button>
        </div>
        {upload.isError ? <ErrorPanel title="The file was not applied" error={upload.error} /> : null}
        {upload.isSuccess ? <Outcome done={upload.data} /> : null}
      </form>
    </Panel>
  );
}
