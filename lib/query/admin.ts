import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ApiTokenInfo } from "@/lib/auth/api-tokens";
import type { UserInfo } from "@/lib/auth/users";
import type { AuditPage } from "@/lib/db/queries/audit";
import type { CreateTokenRequest, CreateUserRequest, Role, UpdateUserRequest } from "@/lib/validations/auth";
import type { RetentionDays, RetentionUpdate } from "@/lib/validations/settings";
import { fetchJson, withQuery } from "./fetch-json";
import type { ReporterRolloutView } from "@/lib/services/reporter-rollout";
import type { ReporterRollout } from "@/lib/validations/reporter-rollout";

export const adminKeys = {
  users: () => ["admin", "users"] as const,
  tokens: () => ["admin", "tokens"] as const,
  audit: (filters: AuditFilterState) => ["admin", "audit", filters] as const,
  contacts: () => ["admin", "contacts"] as const,
};

/** The admins, which any signed-in user may read (their emails only an admin): whom to ask. */
export const adminContactsOptions = () =>
  queryOptions({
    queryKey: adminKeys.contacts(),
    queryFn: ({ signal }) => fetchJson<{ admins: { name: string; email?: string }[] }>("/api/v1/admins", { signal }),
  });

/** The signed-in caller's role (any signed-in user, members too): what a refused page says to them. */
export const meOptions = () =>
  queryOptions({
    queryKey: ["me"] as const,
    queryFn: ({ signal }) => fetchJson<{ role: Role }>("/api/v1/me", { signal }),
  });

export const usersOptions = () =>
  queryOptions({
    queryKey: adminKeys.users(),
    queryFn: ({ signal }) => fetchJson<{ users: UserInfo[] }>("/api/v1/users", { signal }),
  });

export const tokensOptions = () =>
  queryOptions({
    queryKey: adminKeys.tokens(),
    queryFn: ({ signal }) => fetchJson<{ tokens: ApiTokenInfo[] }>("/api/v1/tokens", { signal }),
  });

export const postUser = (body: CreateUserRequest) =>
  fetchJson<{ user: UserInfo }>("/api/v1/users", { method: "POST", body: JSON.stringify(body) });

export const patchUser = (id: string, body: UpdateUserRequest) =>
  fetchJson<{ user: UserInfo }>(`/api/v1/users/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: JSON.stringify(body),
  });

export const postToken = (body: CreateTokenRequest) =>
  fetchJson<{ token: string; info: ApiTokenInfo }>("/api/v1/tokens", { method: "POST", body: JSON.stringify(body) });

export const putRetention = (body: RetentionUpdate) =>
  fetchJson<{ retention: RetentionDays }>("/api/v1/settings/retention", { method: "PUT", body: JSON.stringify(body) });

export const putReporterRollout = (body: ReporterRollout) =>
  fetchJson<ReporterRolloutView>("/api/v1/settings/reporter-rollout", { method: "PUT", body: JSON.stringify(body) });

export const revokeToken = (id: string) =>
  fetchJson<{ token: ApiTokenInfo }>(`/api/v1/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });

export type AuditFilterState = { actor?: string; action?: string; from?: string; to?: string };

export const auditOptions = (filters: AuditFilterState) =>
  infiniteQueryOptions({
    queryKey: adminKeys.audit(filters),
    initialPageParam: "",
    queryFn: ({ pageParam, signal }) =>
      fetchJson<AuditPage>(withQuery("/api/v1/audit", { ...filters, cursor: pageParam, limit: 50 }), { signal }),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Enrolled workspaces keep working; new ones need the new key. */
export const rotateEnrollmentKey = () =>
  fetchJson<{ rotated: boolean }>("/api/v1/enrollment-key/rotate", { method: "POST" });
