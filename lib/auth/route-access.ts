// Every route and who may call it: the access tests iterate this table for every kind of caller, and a test
// fails when a route file exists that is not listed here. "public" routes authenticate by other means
// (the enrollment key, workspace tokens) or expose nothing private. "member" routes are open to members too and
// read within the caller's scope (a member: only the workspaces they own in Coder); a test calls each as a
// member and finds nothing of another owner's in the answer.

export type RouteAccess = "public" | "setup" | "member" | "viewer" | "admin";
export type RouteRule = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  access: RouteAccess;
  why?: string;
};

export const ROUTE_ACCESS: readonly RouteRule[] = [
  { method: "POST", path: "/api/v1/enroll", access: "public", why: "workspaces: the enrollment key" },
  { method: "POST", path: "/api/v1/reports", access: "public", why: "workspaces: their workspace token" },
  {
    method: "POST",
    path: "/api/v1/report-blockers",
    access: "public",
    why: "workspaces: the enrollment key, or their workspace token (only their own reason)",
  },
  {
    method: "POST",
    path: "/api/v1/reports/batch",
    access: "public",
    why: "workspaces: their workspace token (a spooled backlog)",
  },
  {
    method: "POST",
    path: "/api/v1/inbox/outcomes",
    access: "public",
    why: "workspaces: their workspace token (settles only the Coder Inbox notices it was handed)",
  },
  // The reporter's side of cleanup: the workspace's own token, and only that workspace's jobs.
  {
    method: "POST",
    path: "/api/v1/jobs/claim",
    access: "public",
    why: "workspaces: their workspace token (claims only their own jobs)",
  },
  {
    method: "POST",
    path: "/api/v1/jobs/[id]/progress",
    access: "public",
    why: "workspaces: their workspace token and the job's lease token",
  },
  {
    method: "POST",
    path: "/api/v1/jobs/[id]/result",
    access: "public",
    why: "workspaces: their workspace token and the job's lease token",
  },
  { method: "GET", path: "/api/v1/schema/report.json", access: "public", why: "the report format, no data" },
  { method: "GET", path: "/api/v1/health", access: "public", why: "load balancers" },
  // Terraform's module registry protocol: `terraform init` sends no credentials, and the module holds no secret.
  { method: "GET", path: "/.well-known/terraform.json", access: "public", why: "Terraform's service discovery" },
  {
    method: "GET",
    path: "/terraform/modules/v1/[namespace]/[name]/[provider]/versions",
    access: "public",
    why: "Terraform: the module's versions",
  },
  {
    method: "GET",
    path: "/terraform/modules/v1/[namespace]/[name]/[provider]/[version]/download",
    access: "public",
    why: "Terraform: where the module's archive is",
  },
  { method: "GET", path: "/api/v1/openapi.json", access: "public", why: "the API's description, no data" },
  { method: "GET", path: "/metrics", access: "viewer", why: "Prometheus, with a viewer API token" },
  { method: "POST", path: "/api/v1/setup", access: "setup", why: "only until the first admin exists" },
  { method: "GET", path: "/api/v1/me", access: "member" },
  { method: "GET", path: "/api/v1/admins", access: "member", why: "whom to ask for what only admins may do" },
  { method: "GET", path: "/api/v1/fleet/overview", access: "viewer" },
  { method: "GET", path: "/api/v1/fleet/restart", access: "viewer" },
  { method: "GET", path: "/api/v1/usage", access: "member" },
  { method: "POST", path: "/api/v1/teams/upload", access: "admin" },
  { method: "GET", path: "/api/v1/volumes/at-risk", access: "viewer" },
  { method: "GET", path: "/api/v1/workspaces", access: "member" },
  { method: "GET", path: "/api/v1/workspaces/[id]", access: "member" },
  { method: "DELETE", path: "/api/v1/workspaces/[id]/token", access: "admin" },
  { method: "GET", path: "/api/v1/agents/[agent]", access: "viewer" },
  { method: "GET", path: "/api/v1/modules/[namespace]/[module]", access: "viewer" },
  { method: "GET", path: "/api/v1/findings", access: "member" },
  { method: "GET", path: "/api/v1/findings/rules", access: "member" },
  { method: "PUT", path: "/api/v1/findings/rules", access: "admin" },
  { method: "GET", path: "/api/v1/users", access: "admin" },
  { method: "POST", path: "/api/v1/users", access: "admin" },
  { method: "PATCH", path: "/api/v1/users/[id]", access: "admin" },
  { method: "GET", path: "/api/v1/tokens", access: "admin" },
  { method: "POST", path: "/api/v1/tokens", access: "admin" },
  { method: "DELETE", path: "/api/v1/tokens/[id]", access: "admin" },
  { method: "GET", path: "/api/v1/audit", access: "admin" },
  { method: "GET", path: "/api/v1/notifications", access: "admin" },
  {
    method: "GET",
    path: "/api/v1/notifications/unsubscribe",
    access: "public",
    why: "an email's unsubscribe link: signed per owner",
  },
  {
    method: "POST",
    path: "/api/v1/notifications/unsubscribe",
    access: "public",
    why: "RFC 8058 one-click unsubscribe: signed per owner",
  },
  { method: "GET", path: "/api/v1/me/notification-preferences", access: "member" },
  { method: "PUT", path: "/api/v1/me/notification-preferences", access: "member" },
  { method: "POST", path: "/api/v1/notifications/test", access: "admin", why: "sends a message (audited)" },
  { method: "GET", path: "/api/v1/settings/notifications", access: "admin" },
  { method: "PUT", path: "/api/v1/settings/notifications", access: "admin" },
  { method: "GET", path: "/api/v1/workspaces/[id]/notices", access: "member" },
  { method: "GET", path: "/api/v1/settings/storage", access: "viewer" },
  { method: "PUT", path: "/api/v1/settings/retention", access: "admin" },
  { method: "POST", path: "/api/v1/enrollment-key/rotate", access: "admin" },
  { method: "POST", path: "/api/v1/coder/sync", access: "admin", why: "calls Coder on demand" },
  { method: "GET", path: "/api/v1/export/usage.csv", access: "member" },
  { method: "GET", path: "/api/v1/export/usage-by.csv", access: "member" },
  { method: "GET", path: "/api/v1/export/workspaces.csv", access: "member" },
  { method: "GET", path: "/api/v1/export/findings.csv", access: "member" },
  { method: "GET", path: "/api/v1/export/restart.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/volumes.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/agents.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/fleet.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/fleet/[table]", access: "viewer" },
  { method: "GET", path: "/api/v1/export/agents/[agent]", access: "viewer" },
  { method: "GET", path: "/api/v1/export/agents/[agent]/[table]", access: "viewer" },
  { method: "GET", path: "/api/v1/export/modules/[namespace]/[module]", access: "viewer" },
  { method: "GET", path: "/api/v1/export/workspaces/[id]/[table]", access: "member" },
  { method: "GET", path: "/api/v1/export/audit.csv", access: "admin" },
  { method: "GET", path: "/api/v1/export/notifications.csv", access: "admin" },
  { method: "GET", path: "/api/v1/export/workspaces/[id]/notices.csv", access: "member" },
  { method: "GET", path: "/api/v1/backup", access: "admin", why: "the whole database, secrets on request" },
  { method: "GET", path: "/api/v1/export/cleanup/runs.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/cleanup/runs/[id]", access: "viewer" },
  { method: "GET", path: "/api/v1/export/cleanup/policies.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/cleanup/recipes.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/settings/tables.csv", access: "viewer" },
  { method: "GET", path: "/api/v1/export/users.csv", access: "admin" },
  { method: "GET", path: "/api/v1/export/tokens.csv", access: "admin" },
  // Cleanup: viewers see the catalog, runs, results and policies; admins preview and act.
  { method: "GET", path: "/api/v1/cleanup/recipes", access: "viewer" },
  { method: "POST", path: "/api/v1/cleanup/preview", access: "admin", why: "the first step of acting (audited)" },
  {
    method: "POST",
    path: "/api/v1/cleanup/preview/free-space",
    access: "admin",
    why: "the first step of acting (audited)",
  },
  { method: "GET", path: "/api/v1/cleanup/runs", access: "viewer" },
  { method: "POST", path: "/api/v1/cleanup/runs", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/runs/[id]", access: "viewer" },
  { method: "POST", path: "/api/v1/cleanup/runs/[id]/cancel", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/jobs/[id]", access: "viewer" },
  { method: "POST", path: "/api/v1/cleanup/jobs/[id]/restore", access: "admin" },
  { method: "POST", path: "/api/v1/cleanup/trash/purge", access: "admin" },
  { method: "POST", path: "/api/v1/cleanup/truncate", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/policies", access: "viewer" },
  { method: "POST", path: "/api/v1/cleanup/policies", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/policies/[id]", access: "viewer" },
  { method: "PATCH", path: "/api/v1/cleanup/policies/[id]", access: "admin" },
  { method: "DELETE", path: "/api/v1/cleanup/policies/[id]", access: "admin" },
  { method: "POST", path: "/api/v1/cleanup/policies/[id]/run", access: "admin" },
  { method: "POST", path: "/api/v1/cleanup/policies/[id]/confirm", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/owner-recipes", access: "viewer" },
  { method: "PUT", path: "/api/v1/cleanup/owner-recipes", access: "admin" },
  { method: "GET", path: "/api/v1/cleanup/keeps", access: "admin" },
  { method: "DELETE", path: "/api/v1/cleanup/keeps/[id]", access: "admin" },
  // My storage: every signed-in user, on the workspaces they own in Coder only (another's answers 404).
  { method: "GET", path: "/api/v1/me/storage", access: "member", why: "the caller's own workspaces only" },
  { method: "POST", path: "/api/v1/me/cleanup/preview", access: "member", why: "own workspaces only (else 404)" },
  { method: "POST", path: "/api/v1/me/cleanup/runs", access: "member", why: "own workspaces only (else 404)" },
  {
    method: "POST",
    path: "/api/v1/me/cleanup/jobs/[id]/restore",
    access: "member",
    why: "own workspaces only (else 404)",
  },
  { method: "POST", path: "/api/v1/me/keeps", access: "member", why: "own workspaces only (else 404)" },
  { method: "DELETE", path: "/api/v1/me/keeps/[id]", access: "member", why: "own Keeps only (else 404)" },
];

/** Pages anyone may open; every other page needs a signed-in user (admin pages check their role too). */
export const PUBLIC_PAGES = ["/sign-in", "/setup"] as const;
/** Paths outside /api/v1 that are public: Better Auth's own mount and the reporter download. */
export const PUBLIC_PREFIXES = ["/api/auth/", "/reporter.mjs"] as const;
