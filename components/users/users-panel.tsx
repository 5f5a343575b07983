"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { usersOptions } from "@/lib/query/admin";
import { useChangeUser, useCreateUser } from "@/lib/query/use-admin-mutations";
import type { AssignableRole } from "@/lib/validations/auth";
import { ASSIGNABLE_ROLES } from "./roles";
import { ExportLink } from "@/components/ui/export-link";
import { exportPaths } from "@/lib/validations/export";
import { TextField } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

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
      <button type="submit" className="button primary" disabled={create.isPending}>
        Add user
      </button>
      {create.isError ? <ErrorPanel title="Could not add the user" error={create.error} /> : null}
      {done && !create.isError ? (
        <span className="muted small" role="status">
          {done}
        </span>
      ) : null}
    </form>
  );
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
            <div className="table-wrap">
              <table className="table" data-testid="users-table">
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Name</th>
                    <th>Role</th>
                    <th>Sign-in</th>
                    <th>State</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((u) => (
                    <tr key={u.id} data-email={u.email}>
                      <td>
                        {u.email}
                        {u.email === myEmail ? <span className="muted small"> (you)</span> : null}
                      </td>
                      <td>{u.name}</td>
                      <td>
                        <select
                          aria-label={`Role of ${u.email}`}
                          value={u.role}
                          disabled={change.isPending}
                          onChange={(e) => change.mutate({ id: u.id, role: e.target.value as AssignableRole })}
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
                      </td>
                      <td>{u.methods.length ? u.methods.join(", ") : <span className="muted">invited</span>}</td>
                      <td>{u.disabled ? <span className="badge">disabled</span> : "active"}</td>
                      <td>
                        <button
                          type="button"
                          className="button"
                          disabled={change.isPending}
                          onClick={() => change.mutate({ id: u.id, disabled: !u.disabled })}
                        >
                          {u.disabled ? "Enable" : "Disable"}
                        </button>
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
