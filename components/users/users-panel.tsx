"use client";

import { useQuery } from "@tanstack/react-query";
import type { ColumnDef } from "@tanstack/react-table";
import { useState, type FormEvent } from "react";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { usersOptions } from "@/lib/query/admin";
import { useChangeUser, useCreateUser } from "@/lib/query/use-admin-mutations";
import type { AssignableRole } from "@/lib/validations/auth";
import { ASSIGNABLE_ROLES } from "./roles";
import { column, DataTable } from "@/components/ui/data-table";
import type { UserInfo } from "@/lib/auth/users";
import { ExportLink } from "@/components/ui/export-link";
import { exportPaths } from "@/lib/validations/export";
import { TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Button } from "@/components/ui/button";

function CreateUserForm() {
  const [done, setDone] = useState("");
  const create = useCreateUser({ onSuccess: ({ user }) => setDone(`Created ${user.email} (${user.role}).`) });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const password = String(f.get("password") ?? "");
    create.mutate({
      email: String(f.get("email")),
      name: String(f.get("name") || "") || undefined,
      role: f.get("role") as AssignableRole,
      password: password || undefined,
    });
    e.currentTarget.reset();
  };
  return (
    <form className="form-row" onSubmit={submit} aria-label="Add a user">
      <TextField look="plain" label="Email" name="email" type="email" required />
      <TextField look="plain" label="Name" name="name" />
      <Select look="plain" label="Role" name="role" defaultValue="viewer" options={ASSIGNABLE_ROLES} />
      <TextField
        look="plain"
        label="Password (empty: invite for single sign-on)"
        name="password"
        type="password"
        minLength={8}
        autoComplete="new-password"
      />
      <Button type="submit" variant="primary" pending={create.isPending}>
        Add user
      </Button>
      {create.isError ? <ErrorPanel title="Could not add the user" error={create.error} /> : null}
      {done && !create.isError ? (
        <span className="muted small" role="status">
          {done}
        </span>
      ) : null}
    </form>
  );
}

function userColumns({
  myEmail,
  busy,
  onChange,
}: {
  myEmail: string;
  busy: boolean;
  onChange: (id: string, patch: { role?: AssignableRole; disabled?: boolean }) => void;
}): ColumnDef<UserInfo>[] {
  return [
    column("email", "Email", (u) => (
      <>
        {u.email}
        {u.email === myEmail ? <span className="muted small"> (you)</span> : null}
      </>
    )),
    column("name", "Name", (u) => u.name),
    column("role", "Role", (u) => (
      <select
        aria-label={`Role of ${u.email}`}
        value={u.role}
        disabled={busy}
        onChange={(e) => onChange(u.id, { role: e.target.value as AssignableRole })}
      >
        {/* Members come from Coder's sign-in, which sets their role again at every sign-in. */}
        {u.role === "member" ? (
          <option value="member" disabled>
            member (own workspaces)
          </option>
        ) : null}
        <option value="viewer">viewer</option>
        <option value="admin">admin</option>
      </select>
    )),
    column("signIn", "Sign-in", (u) =>
      u.methods.length ? u.methods.join(", ") : <span className="muted">invited</span>,
    ),
    column("state", "State", (u) => (u.disabled ? <span className="badge">disabled</span> : "active")),
    column("toggle", "", (u) => (
      <Button disabled={busy} onClick={() => onChange(u.id, { disabled: !u.disabled })}>
        {u.disabled ? "Enable" : "Disable"}
      </Button>
    )),
  ];
}

/** Admins manage users: add (with a password, or invited for SSO), change role, disable and enable. */
export function UsersPanel({ myEmail }: { myEmail: string }) {
  const query = useQuery(usersOptions());
  const change = useChangeUser();
  return (
    <Panel title="Users" actions={<ExportLink path={exportPaths.users()} title="Download every user as CSV" />}>
      <div className="stack">
        <CreateUserForm />
        {change.isError ? <ErrorPanel title="Could not change the user" error={change.error} /> : null}
        <QueryView query={query}>
          {(data) => (
            <DataTable
              data={data.users}
              columns={userColumns({
                myEmail,
                busy: change.isPending,
                onChange: (id, patch) => change.mutate({ id, ...patch }),
              })}
              rowId={(u) => u.id}
              testId="users-table"
              stacked={3}
              rowProps={(u) => ({ "data-email": u.email })}
            />
          )}
        </QueryView>
      </div>
    </Panel>
  );
}
