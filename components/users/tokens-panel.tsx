"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyButton } from "@/components/connect/copy-button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { tokensOptions } from "@/lib/query/admin";
import { useCreateToken, useRevokeToken } from "@/lib/query/use-admin-mutations";
import type { AssignableRole } from "@/lib/validations/auth";
import { ASSIGNABLE_ROLES } from "./roles";
import { ExportLink } from "@/components/ui/export-link";
import { exportPaths } from "@/lib/validations/export";
import { NumberField, TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "—");

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
          <button type="submit" className="button primary" disabled={create.isPending}>
            Create token
          </button>
        </form>
        {create.isError ? <ErrorPanel title="Could not create the token" error={create.error} /> : null}
        {revoke.isError ? <ErrorPanel title="Could not revoke the token" error={revoke.error} /> : null}
        {created ? (
          <div className="secret-once" role="status">
            <p className="small">
              Token <strong>{created.name}</strong>: copy it now, it is not shown again.
            </p>
            <code data-testid="new-token">{created.token}</code> <CopyButton text={created.token} />
            <button type="button" className="button" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        ) : null}
        <QueryView query={query}>
          {(data) => (
            <div className="table-wrap">
              <table className="table" data-testid="tokens-table">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Role</th>
                    <th>Starts with</th>
                    <th>Created by</th>
                    <th>Created</th>
                    <th>Expires</th>
                    <th>Last used</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {data.tokens.map((t) => (
                    <tr key={t.id}>
                      <td>{t.name}</td>
                      <td>{t.role}</td>
                      <td>
                        <code>{t.start}…</code>
                      </td>
                      <td>{t.createdBy ?? "—"}</td>
                      <td>{day(t.createdAt)}</td>
                      <td>{day(t.expiresAt)}</td>
                      <td>{day(t.lastUsedAt)}</td>
                      <td>
                        {t.revoked ? (
                          <span className="badge">revoked</span>
                        ) : (
                          <button
                            type="button"
                            className="button"
                            disabled={revoke.isPending}
                            onClick={() => revoke.mutate(t.id)}
                          >
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryView>
      </div>
    </Panel>
  );
}
