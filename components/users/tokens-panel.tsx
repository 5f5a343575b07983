"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useState, type FormEvent } from "react";
import { CopyButton } from "@/components/connect/copy-button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { tokensOptions } from "@/lib/query/admin";
import { useCreateToken, useRevokeToken } from "@/lib/query/use-admin-mutations";
import type { AssignableRole } from "@/lib/validations/auth";
import { ASSIGNABLE_ROLES } from "./roles";
import { column, DataTable } from "@/components/ui/data-table";
import type { ApiTokenInfo } from "@/lib/auth/api-tokens";
import { ExportLink } from "@/components/ui/export-link";
import { exportPaths } from "@/lib/validations/export";
import { NumberField, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");

function tokenColumns({
  busy,
  onRevoke,
}: {
  busy: boolean;
  onRevoke: (id: string) => void;
}): ColumnDef<ApiTokenInfo>[] {
  return [
    column("name", "Name", (t) => t.name),
    column("role", "Role", (t) => t.role),
    column("start", "Starts with", (t) => <code>{t.start}…</code>),
    column("createdBy", "Created by", (t) => t.createdBy ?? "—"),
    column("created", "Created", (t) => day(t.createdAt)),
    column("expires", "Expires", (t) => day(t.expiresAt)),
    column("lastUsed", "Last used", (t) => day(t.lastUsedAt)),
    column("revoke", "", (t) =>
      t.revoked ? (
        <span className="badge">revoked</span>
      ) : (
        <Button disabled={busy} onClick={() => onRevoke(t.id)}>
          Revoke
        </Button>
      ),
    ),
  ];
}

/** API tokens for scripts: created here (shown once), listed by name and first characters, revoked at once. */
export function TokensPanel() {
  const query = useQuery(tokensOptions());
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const create = useCreateToken({ onSuccess: ({ token, info }) => setCreated({ name: info.name, token }) });
  const revoke = useRevokeToken();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const days = Number(f.get("days") || 0);
    create.mutate({
      name: String(f.get("name")),
      role: f.get("role") as AssignableRole,
      expiresInDays: days > 0 ? days : undefined,
    });
    e.currentTarget.reset();
  };
  return (
    <Panel
      title="API tokens"
      actions={
        <ExportLink path={exportPaths.tokens()} title="Download every API token (never the token itself) as CSV" />
      }
    >
      <div className="stack">
        <p className="muted small">
          For scripts: <code>Authorization: Bearer &lt;token&gt;</code> on <code>/api/v1/*</code>. Also{" "}
          <code>npm run token -- create|list|revoke</code>.
        </p>
        <form className="form-row" onSubmit={submit} aria-label="Create an API token">
          <TextField look="plain" label="Name" name="name" required maxLength={64} />
          <Select look="plain" label="Role" name="role" defaultValue="viewer" options={ASSIGNABLE_ROLES} />
          <NumberField look="plain" label="Expires in days (empty: never)" name="days" min={1} max={3650} />
          <Button type="submit" variant="primary" pending={create.isPending}>
            Create token
          </Button>
        </form>
        {create.isError ? <ErrorPanel title="Could not create the token" error={create.error} /> : null}
        {revoke.isError ? <ErrorPanel title="Could not revoke the token" error={revoke.error} /> : null}
        {created ? (
          <div className="secret-once" role="status">
            <p className="small">
              Token <strong>{created.name}</strong>: copy it now, it is not shown again.
            </p>
            <code data-testid="new-token">{created.token}</code> <CopyButton text={created.token} />
            <Button onClick={() => setCreated(null)}>Done</Button>
          </div>
        ) : null}
        <QueryView query={query}>
          {(data) => (
            <DataTable
              data={data.tokens}
              columns={tokenColumns({ busy: revoke.isPending, onRevoke: (id) => revoke.mutate(id) })}
              rowId={(t) => t.id}
              testId="tokens-table"
            />
          )}
        </QueryView>
      </div>
    </Panel>
  );
}
