// Who may call what: every route of lib/auth/route-access.ts, called by every kind of caller, on both databases.
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import * as adminsRoute from "@/app/api/v1/admins/route";
import * as agentRoute from "@/app/api/v1/agents/[agent]/route";
import * as auditRoute from "@/app/api/v1/audit/route";
import * as coderSyncRoute from "@/app/api/v1/coder/sync/route";
import * as cleanupJobRoute from "@/app/api/v1/cleanup/jobs/[id]/route";
import * as cleanupRestoreRoute from "@/app/api/v1/cleanup/jobs/[id]/restore/route";
import * as cleanupPolicyRoute from "@/app/api/v1/cleanup/policies/[id]/route";
import * as cleanupPolicyRunRoute from "@/app/api/v1/cleanup/policies/[id]/run/route";
import * as cleanupPolicyConfirmRoute from "@/app/api/v1/cleanup/policies/[id]/confirm/route";
import * as cleanupPoliciesRoute from "@/app/api/v1/cleanup/policies/route";
import * as cleanupPreviewRoute from "@/app/api/v1/cleanup/preview/route";
import * as cleanupFreeSpaceRoute from "@/app/api/v1/cleanup/preview/free-space/route";
import * as cleanupRecipesRoute from "@/app/api/v1/cleanup/recipes/route";
import * as cleanupCancelRoute from "@/app/api/v1/cleanup/runs/[id]/cancel/route";
import * as cleanupRunRoute from "@/app/api/v1/cleanup/runs/[id]/route";
import * as cleanupRunsRoute from "@/app/api/v1/cleanup/runs/route";
import * as cleanupPurgeRoute from "@/app/api/v1/cleanup/trash/purge/route";
import * as cleanupTruncateRoute from "@/app/api/v1/cleanup/truncate/route";
import * as cleanupKeepRoute from "@/app/api/v1/cleanup/keeps/[id]/route";
import * as cleanupKeepsRoute from "@/app/api/v1/cleanup/keeps/route";
import * as ownerRecipesRoute from "@/app/api/v1/cleanup/owner-recipes/route";
import * as myStorageRoute from "@/app/api/v1/me/storage/route";
import * as myPreviewRoute from "@/app/api/v1/me/cleanup/preview/route";
import * as myRunsRoute from "@/app/api/v1/me/cleanup/runs/route";
import * as myRestoreRoute from "@/app/api/v1/me/cleanup/jobs/[id]/restore/route";
import * as myKeepsRoute from "@/app/api/v1/me/keeps/route";
import * as myKeepRoute from "@/app/api/v1/me/keeps/[id]/route";
import * as jobProgressRoute from "@/app/api/v1/jobs/[id]/progress/route";
import * as jobResultRoute from "@/app/api/v1/jobs/[id]/result/route";
import * as jobClaimRoute from "@/app/api/v1/jobs/claim/route";
import * as enrollRoute from "@/app/api/v1/enroll/route";
import * as rotateRoute from "@/app/api/v1/enrollment-key/rotate/route";
import * as findingsRoute from "@/app/api/v1/findings/route";
import * as rulesRoute from "@/app/api/v1/findings/rules/route";
import * as overviewRoute from "@/app/api/v1/fleet/overview/route";
import * as restartRoute from "@/app/api/v1/fleet/restart/route";
import * as atRiskRoute from "@/app/api/v1/volumes/at-risk/route";
import * as healthRoute from "@/app/api/v1/health/route";
import * as openapiRoute from "@/app/api/v1/openapi.json/route";
import * as metricsRoute from "@/app/metrics/route";
import * as meRoute from "@/app/api/v1/me/route";
import * as notificationsRoute from "@/app/api/v1/notifications/route";
import * as unsubscribeRoute from "@/app/api/v1/notifications/unsubscribe/route";
import * as noticePreferencesRoute from "@/app/api/v1/me/notification-preferences/route";
import { unsubscribeSignature } from "@/lib/notify/unsubscribe";
import * as notificationTestRoute from "@/app/api/v1/notifications/test/route";
import * as notifySettingsRoute from "@/app/api/v1/settings/notifications/route";
import * as reporterRolloutRoute from "@/app/api/v1/settings/reporter-rollout/route";
import * as reporterDownloadRoute from "@/app/api/v1/reporter/[file]/route";
import * as workspaceNoticesRoute from "@/app/api/v1/workspaces/[id]/notices/route";
import * as exportNotificationsRoute from "@/app/api/v1/export/notifications.csv/route";
import * as exportWorkspaceNoticesRoute from "@/app/api/v1/export/workspaces/[id]/notices.csv/route";
import * as reportsRoute from "@/app/api/v1/reports/route";
import * as reportBatchRoute from "@/app/api/v1/reports/batch/route";
import * as inboxOutcomesRoute from "@/app/api/v1/inbox/outcomes/route";
import * as schemaRoute from "@/app/api/v1/schema/report.json/route";
import * as setupRoute from "@/app/api/v1/setup/route";
import * as tokenRoute from "@/app/api/v1/tokens/[id]/route";
import * as tokensRoute from "@/app/api/v1/tokens/route";
import * as userRoute from "@/app/api/v1/users/[id]/route";
import * as usersRoute from "@/app/api/v1/users/route";
import * as workspaceTokenRoute from "@/app/api/v1/workspaces/[id]/token/route";
import * as workspaceRoute from "@/app/api/v1/workspaces/[id]/route";
import * as workspacesRoute from "@/app/api/v1/workspaces/route";
import { createPolicy } from "@/lib/services/cleanup-policies";
import { apiKeys, users } from "@/lib/db/schema";
import { describeEachDatabase, serveRoutesFrom, TEST_WHO } from "@/tests/support/db";
import { enrollWorkspace, getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { createApiToken, revokeApiToken } from "@/lib/services/api-tokens";
import { ROUTE_ACCESS, type RouteRule } from "./route-access";
import { authSecret } from "./server";
import { BASE, ctx, makePrincipals, signIn, type Principals } from "@/tests/support/auth";
import { createUser } from "@/lib/services/users";
import * as exportUsageRoute from "@/app/api/v1/export/usage.csv/route";
import * as exportUsageByRoute from "@/app/api/v1/export/usage-by.csv/route";
import * as usageRoute from "@/app/api/v1/usage/route";
import * as teamsUploadRoute from "@/app/api/v1/teams/upload/route";
import * as backupRoute from "@/app/api/v1/backup/route";
import * as exportWorkspacesRoute from "@/app/api/v1/export/workspaces.csv/route";
import * as exportFindingsRoute from "@/app/api/v1/export/findings.csv/route";
import * as exportRestartRoute from "@/app/api/v1/export/restart.csv/route";
import * as exportVolumesRoute from "@/app/api/v1/export/volumes.csv/route";
import * as exportAgentsRoute from "@/app/api/v1/export/agents.csv/route";
import * as exportFleetRoute from "@/app/api/v1/export/fleet.csv/route";
import * as exportFleetTableRoute from "@/app/api/v1/export/fleet/[table]/route";
import * as exportAgentRoute from "@/app/api/v1/export/agents/[agent]/route";
import * as exportAgentTableRoute from "@/app/api/v1/export/agents/[agent]/[table]/route";
import * as exportModuleRoute from "@/app/api/v1/export/modules/[namespace]/[module]/route";
import * as moduleRoute from "@/app/api/v1/modules/[namespace]/[module]/route";
import * as exportWorkspaceTableRoute from "@/app/api/v1/export/workspaces/[id]/[table]/route";
import * as exportAuditRoute from "@/app/api/v1/export/audit.csv/route";
import * as storageSettingsRoute from "@/app/api/v1/settings/storage/route";
import * as retentionRoute from "@/app/api/v1/settings/retention/route";
import * as exportCleanupRunsRoute from "@/app/api/v1/export/cleanup/runs.csv/route";
import * as exportCleanupRunRoute from "@/app/api/v1/export/cleanup/runs/[id]/route";
import * as exportCleanupPoliciesRoute from "@/app/api/v1/export/cleanup/policies.csv/route";
import * as exportCleanupRecipesRoute from "@/app/api/v1/export/cleanup/recipes.csv/route";
import * as exportTableSizesRoute from "@/app/api/v1/export/settings/tables.csv/route";
import * as exportReporterVersionsRoute from "@/app/api/v1/export/settings/reporter-versions.csv/route";
import * as exportUsersRoute from "@/app/api/v1/export/users.csv/route";
import * as exportTokensRoute from "@/app/api/v1/export/tokens.csv/route";
import * as reportBlockersRoute from "@/app/api/v1/report-blockers/route";
import * as terraformDiscoveryRoute from "@/app/.well-known/terraform.json/route";
import * as moduleVersionsRoute from "@/app/terraform/modules/v1/[namespace]/[name]/[provider]/versions/route";
import * as moduleDownloadRoute from "@/app/terraform/modules/v1/[namespace]/[name]/[provider]/[version]/download/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Example = { url: string; params?: Record<string, string>; body?: () => unknown };

let seq = 0;
const WS = "ws-access";
const NO_ID = "00000000-0000-4000-8000-000000000000";
const RUN = { recipe: "claude-code-debug", params: { olderThanDays: 7 }, scope: { all: true as const } };
const RESULT = {
  leaseToken: "slt_x",
  status: "done",
  unitsActed: 0,
  bytesActed: 0,
  units: [],
  skipped: [],
  errors: [],
  logTail: [],
  startedAt: "2026-01-01T00:00:00Z",
  finishedAt: "2026-01-01T00:00:01Z",
};
/** A concrete request for each route; mutations carry a valid body, so a wrongly allowed call would change something. */
const EXAMPLES: Record<string, { module: Record<string, unknown>; example: Example }> = {
  "POST /api/v1/enroll": {
    module: enrollRoute,
    example: { url: "/api/v1/enroll", body: () => ({ workspace: { id: "ws-x", name: "x", owner: "o" } }) },
  },
  "POST /api/v1/reports": { module: reportsRoute, example: { url: "/api/v1/reports", body: () => ({}) } },
  "POST /api/v1/report-blockers": {
    module: reportBlockersRoute,
    example: {
      url: "/api/v1/report-blockers",
      body: () => ({ workspace: { id: WS, name: "access", owner: "erin" }, reason: "no-runtime", detail: "no node" }),
    },
  },
  "GET /.well-known/terraform.json": {
    module: terraformDiscoveryRoute,
    example: { url: "/.well-known/terraform.json" },
  },
  "GET /terraform/modules/v1/[namespace]/[name]/[provider]/versions": {
    module: moduleVersionsRoute,
    example: {
      url: "/terraform/modules/v1/coder/storage-reporter/coder/versions",
      params: { namespace: "coder", name: "storage-reporter", provider: "coder" },
    },
  },
  "GET /terraform/modules/v1/[namespace]/[name]/[provider]/[version]/download": {
    module: moduleDownloadRoute,
    example: {
      url: "/terraform/modules/v1/coder/storage-reporter/coder/0.0.0/download",
      params: { namespace: "coder", name: "storage-reporter", provider: "coder", version: "0.0.0" },
    },
  },
  "POST /api/v1/reports/batch": {
    module: reportBatchRoute,
    example: { url: "/api/v1/reports/batch", body: () => ({ reports: [{}] }) },
  },
  "POST /api/v1/inbox/outcomes": {
    module: inboxOutcomesRoute,
    example: { url: "/api/v1/inbox/outcomes", body: () => ({ outcomes: [] }) },
  },
  "GET /api/v1/schema/report.json": { module: schemaRoute, example: { url: "/api/v1/schema/report.json" } },
  "GET /api/v1/health": { module: healthRoute, example: { url: "/api/v1/health" } },
  "GET /api/v1/openapi.json": { module: openapiRoute, example: { url: "/api/v1/openapi.json" } },
  "GET /metrics": { module: metricsRoute, example: { url: "/metrics" } },
  "POST /api/v1/setup": {
    module: setupRoute,
    example: { url: "/api/v1/setup", body: () => ({ email: "late@example.com", password: "late-password-1" }) },
  },
  "GET /api/v1/me": { module: meRoute, example: { url: "/api/v1/me" } },
  "GET /api/v1/admins": { module: adminsRoute, example: { url: "/api/v1/admins" } },
  "GET /api/v1/fleet/overview": { module: overviewRoute, example: { url: "/api/v1/fleet/overview" } },
  "GET /api/v1/fleet/restart": { module: restartRoute, example: { url: "/api/v1/fleet/restart" } },
  "GET /api/v1/volumes/at-risk": { module: atRiskRoute, example: { url: "/api/v1/volumes/at-risk?days=7" } },
  "GET /api/v1/workspaces": { module: workspacesRoute, example: { url: "/api/v1/workspaces" } },
  "GET /api/v1/workspaces/[id]": {
    module: workspaceRoute,
    example: { url: `/api/v1/workspaces/${WS}`, params: { id: WS } },
  },
  "DELETE /api/v1/workspaces/[id]/token": {
    module: workspaceTokenRoute,
    example: { url: `/api/v1/workspaces/${WS}/token`, params: { id: WS } },
  },
  "GET /api/v1/agents/[agent]": {
    module: agentRoute,
    example: { url: "/api/v1/agents/codex", params: { agent: "codex" } },
  },
  "GET /api/v1/modules/[namespace]/[module]": {
    module: moduleRoute,
    example: { url: "/api/v1/modules/coder/codex", params: { namespace: "coder", module: "codex" } },
  },
  "GET /api/v1/findings": { module: findingsRoute, example: { url: "/api/v1/findings" } },
  "GET /api/v1/findings/rules": { module: rulesRoute, example: { url: "/api/v1/findings/rules" } },
  "PUT /api/v1/findings/rules": {
    module: rulesRoute,
    example: {
      url: "/api/v1/findings/rules",
      body: () => ({ rules: [{ id: "volume-filling", params: { days: 9 } }] }),
    },
  },
  "GET /api/v1/users": { module: usersRoute, example: { url: "/api/v1/users" } },
  "POST /api/v1/users": {
    module: usersRoute,
    example: {
      url: "/api/v1/users",
      body: () => ({ email: `new-${++seq}@example.com`, role: "viewer", password: "new-user-password" }),
    },
  },
  "PATCH /api/v1/users/[id]": {
    module: userRoute,
    example: { url: "/api/v1/users/:viewer", params: { id: ":viewer" }, body: () => ({ role: "viewer" }) },
  },
  "GET /api/v1/tokens": { module: tokensRoute, example: { url: "/api/v1/tokens" } },
  "POST /api/v1/tokens": {
    module: tokensRoute,
    example: { url: "/api/v1/tokens", body: () => ({ name: `script-${++seq}`, role: "viewer" }) },
  },
  "DELETE /api/v1/tokens/[id]": {
    module: tokenRoute,
    example: { url: "/api/v1/tokens/:victim", params: { id: ":victim" } },
  },
  "GET /api/v1/audit": { module: auditRoute, example: { url: "/api/v1/audit" } },
  "GET /api/v1/notifications": { module: notificationsRoute, example: { url: "/api/v1/notifications" } },
  // The signed link is its own credential: every caller holding it gets the same answer.
  "GET /api/v1/notifications/unsubscribe": {
    module: unsubscribeRoute,
    example: { url: "/api/v1/notifications/unsubscribe?owner=erin&sig=:sig" },
  },
  "POST /api/v1/notifications/unsubscribe": {
    module: unsubscribeRoute,
    example: { url: "/api/v1/notifications/unsubscribe?owner=erin&sig=:sig" },
  },
  "GET /api/v1/me/notification-preferences": {
    module: noticePreferencesRoute,
    example: { url: "/api/v1/me/notification-preferences" },
  },
  "PUT /api/v1/me/notification-preferences": {
    module: noticePreferencesRoute,
    example: { url: "/api/v1/me/notification-preferences", body: () => ({ channels: {} }) },
  },
  "POST /api/v1/notifications/test": {
    module: notificationTestRoute,
    example: { url: "/api/v1/notifications/test", body: () => ({ channel: "webhook" }) },
  },
  "GET /api/v1/settings/notifications": {
    module: notifySettingsRoute,
    example: { url: "/api/v1/settings/notifications" },
  },
  "PUT /api/v1/settings/notifications": {
    module: notifySettingsRoute,
    example: { url: "/api/v1/settings/notifications", body: () => ({ fillingDays: 9 }) },
  },
  "GET /api/v1/settings/reporter-rollout": {
    module: reporterRolloutRoute,
    example: { url: "/api/v1/settings/reporter-rollout" },
  },
  "PUT /api/v1/settings/reporter-rollout": {
    module: reporterRolloutRoute,
    example: { url: "/api/v1/settings/reporter-rollout", body: () => ({ pinned: null, candidate: null }) },
  },
  "GET /api/v1/reporter/[file]": {
    module: reporterDownloadRoute,
    example: { url: "/api/v1/reporter/reporter.mjs.sha256", params: { file: "reporter.mjs.sha256" } },
  },
  "GET /api/v1/workspaces/[id]/notices": {
    module: workspaceNoticesRoute,
    example: { url: `/api/v1/workspaces/${WS}/notices`, params: { id: WS } },
  },
  "GET /api/v1/export/notifications.csv": {
    module: exportNotificationsRoute,
    example: { url: "/api/v1/export/notifications.csv" },
  },
  "GET /api/v1/export/workspaces/[id]/notices.csv": {
    module: exportWorkspaceNoticesRoute,
    example: { url: `/api/v1/export/workspaces/${WS}/notices.csv`, params: { id: WS } },
  },
  "GET /api/v1/settings/storage": { module: storageSettingsRoute, example: { url: "/api/v1/settings/storage" } },
  "PUT /api/v1/settings/retention": {
    module: retentionRoute,
    example: { url: "/api/v1/settings/retention", body: () => ({ audit: 400 }) },
  },
  "POST /api/v1/enrollment-key/rotate": { module: rotateRoute, example: { url: "/api/v1/enrollment-key/rotate" } },
  "POST /api/v1/coder/sync": { module: coderSyncRoute, example: { url: "/api/v1/coder/sync" } },
  "GET /api/v1/export/usage.csv": { module: exportUsageRoute, example: { url: "/api/v1/export/usage.csv" } },
  "GET /api/v1/export/usage-by.csv": {
    module: exportUsageByRoute,
    example: { url: "/api/v1/export/usage-by.csv?dimension=owner" },
  },
  "GET /api/v1/usage": { module: usageRoute, example: { url: "/api/v1/usage?dimension=owner" } },
  "POST /api/v1/teams/upload": { module: teamsUploadRoute, example: { url: "/api/v1/teams/upload", body: () => ({}) } },
  "GET /api/v1/backup": { module: backupRoute, example: { url: "/api/v1/backup" } },
  "GET /api/v1/export/workspaces.csv": {
    module: exportWorkspacesRoute,
    example: { url: "/api/v1/export/workspaces.csv" },
  },
  "GET /api/v1/export/findings.csv": { module: exportFindingsRoute, example: { url: "/api/v1/export/findings.csv" } },
  "GET /api/v1/export/restart.csv": { module: exportRestartRoute, example: { url: "/api/v1/export/restart.csv" } },
  "GET /api/v1/export/volumes.csv": { module: exportVolumesRoute, example: { url: "/api/v1/export/volumes.csv" } },
  "GET /api/v1/export/agents.csv": { module: exportAgentsRoute, example: { url: "/api/v1/export/agents.csv" } },
  "GET /api/v1/export/fleet.csv": { module: exportFleetRoute, example: { url: "/api/v1/export/fleet.csv" } },
  "GET /api/v1/export/fleet/[table]": {
    module: exportFleetTableRoute,
    example: { url: "/api/v1/export/fleet/top-workspaces.csv", params: { table: "top-workspaces.csv" } },
  },
  "GET /api/v1/export/agents/[agent]": {
    module: exportAgentRoute,
    example: { url: "/api/v1/export/agents/codex.csv", params: { agent: "codex.csv" } },
  },
  "GET /api/v1/export/agents/[agent]/[table]": {
    module: exportAgentTableRoute,
    example: { url: "/api/v1/export/agents/codex/series.csv", params: { agent: "codex", table: "series.csv" } },
  },
  "GET /api/v1/export/modules/[namespace]/[module]": {
    module: exportModuleRoute,
    example: { url: "/api/v1/export/modules/coder/codex.csv", params: { namespace: "coder", module: "codex.csv" } },
  },
  "GET /api/v1/export/workspaces/[id]/[table]": {
    module: exportWorkspaceTableRoute,
    example: { url: `/api/v1/export/workspaces/${WS}/roots.csv`, params: { id: WS, table: "roots.csv" } },
  },
  "GET /api/v1/export/audit.csv": { module: exportAuditRoute, example: { url: "/api/v1/export/audit.csv" } },
  "GET /api/v1/export/cleanup/policies.csv": {
    module: exportCleanupPoliciesRoute,
    example: { url: "/api/v1/export/cleanup/policies.csv" },
  },
  "GET /api/v1/export/cleanup/recipes.csv": {
    module: exportCleanupRecipesRoute,
    example: { url: "/api/v1/export/cleanup/recipes.csv" },
  },
  "GET /api/v1/export/settings/tables.csv": {
    module: exportTableSizesRoute,
    example: { url: "/api/v1/export/settings/tables.csv" },
  },
  "GET /api/v1/export/settings/reporter-versions.csv": {
    module: exportReporterVersionsRoute,
    example: { url: "/api/v1/export/settings/reporter-versions.csv" },
  },
  "GET /api/v1/export/users.csv": { module: exportUsersRoute, example: { url: "/api/v1/export/users.csv" } },
  "GET /api/v1/export/tokens.csv": { module: exportTokensRoute, example: { url: "/api/v1/export/tokens.csv" } },
  "GET /api/v1/export/cleanup/runs.csv": {
    module: exportCleanupRunsRoute,
    example: { url: "/api/v1/export/cleanup/runs.csv" },
  },
  "GET /api/v1/export/cleanup/runs/[id]": {
    module: exportCleanupRunRoute,
    example: { url: `/api/v1/export/cleanup/runs/${NO_ID}.csv`, params: { id: `${NO_ID}.csv` } },
  },
  "GET /api/v1/cleanup/recipes": { module: cleanupRecipesRoute, example: { url: "/api/v1/cleanup/recipes" } },
  "POST /api/v1/cleanup/preview": {
    module: cleanupPreviewRoute,
    example: { url: "/api/v1/cleanup/preview", body: () => RUN },
  },
  "POST /api/v1/cleanup/preview/free-space": {
    module: cleanupFreeSpaceRoute,
    example: { url: "/api/v1/cleanup/preview/free-space", body: () => ({ workspaceId: WS }) },
  },
  "GET /api/v1/cleanup/runs": { module: cleanupRunsRoute, example: { url: "/api/v1/cleanup/runs" } },
  "POST /api/v1/cleanup/runs": {
    module: cleanupRunsRoute,
    example: { url: "/api/v1/cleanup/runs", body: () => ({ ...RUN, confirmBytes: 0 }) },
  },
  "GET /api/v1/cleanup/runs/[id]": {
    module: cleanupRunRoute,
    example: { url: `/api/v1/cleanup/runs/${NO_ID}`, params: { id: NO_ID } },
  },
  "POST /api/v1/cleanup/runs/[id]/cancel": {
    module: cleanupCancelRoute,
    example: { url: `/api/v1/cleanup/runs/${NO_ID}/cancel`, params: { id: NO_ID } },
  },
  "GET /api/v1/cleanup/jobs/[id]": {
    module: cleanupJobRoute,
    example: { url: `/api/v1/cleanup/jobs/${NO_ID}`, params: { id: NO_ID } },
  },
  "POST /api/v1/cleanup/jobs/[id]/restore": {
    module: cleanupRestoreRoute,
    example: { url: `/api/v1/cleanup/jobs/${NO_ID}/restore`, params: { id: NO_ID } },
  },
  "POST /api/v1/cleanup/trash/purge": {
    module: cleanupPurgeRoute,
    example: { url: "/api/v1/cleanup/trash/purge", body: () => ({ workspaceIds: [WS] }) },
  },
  "POST /api/v1/cleanup/truncate": {
    module: cleanupTruncateRoute,
    example: {
      url: "/api/v1/cleanup/truncate",
      body: () => ({ workspaceId: WS, rootKey: "claude-code:data", path: "debug/latest.log", confirmBytes: 1 }),
    },
  },
  "GET /api/v1/cleanup/owner-recipes": {
    module: ownerRecipesRoute,
    example: { url: "/api/v1/cleanup/owner-recipes" },
  },
  "PUT /api/v1/cleanup/owner-recipes": {
    module: ownerRecipesRoute,
    example: {
      url: "/api/v1/cleanup/owner-recipes",
      body: () => ({ recipe: "claude-code-debug", ownersMayRun: true }),
    },
  },
  "GET /api/v1/cleanup/keeps": { module: cleanupKeepsRoute, example: { url: "/api/v1/cleanup/keeps" } },
  "DELETE /api/v1/cleanup/keeps/[id]": {
    module: cleanupKeepRoute,
    example: { url: `/api/v1/cleanup/keeps/${NO_ID}`, params: { id: NO_ID } },
  },
  "GET /api/v1/me/storage": { module: myStorageRoute, example: { url: "/api/v1/me/storage" } },
  "POST /api/v1/me/cleanup/preview": {
    module: myPreviewRoute,
    example: { url: "/api/v1/me/cleanup/preview", body: () => ({ workspaceId: WS, recipe: "claude-code-debug" }) },
  },
  "POST /api/v1/me/cleanup/runs": {
    module: myRunsRoute,
    example: {
      url: "/api/v1/me/cleanup/runs",
      body: () => ({ workspaceId: WS, recipe: "claude-code-debug", confirmBytes: 1 }),
    },
  },
  "POST /api/v1/me/cleanup/jobs/[id]/restore": {
    module: myRestoreRoute,
    example: { url: `/api/v1/me/cleanup/jobs/${NO_ID}/restore`, params: { id: NO_ID } },
  },
  "POST /api/v1/me/keeps": {
    module: myKeepsRoute,
    example: { url: "/api/v1/me/keeps", body: () => ({ workspaceId: WS, path: "nowhere", days: 1 }) },
  },
  "DELETE /api/v1/me/keeps/[id]": {
    module: myKeepRoute,
    example: { url: `/api/v1/me/keeps/${NO_ID}`, params: { id: NO_ID } },
  },
  "GET /api/v1/cleanup/policies": { module: cleanupPoliciesRoute, example: { url: "/api/v1/cleanup/policies" } },
  "POST /api/v1/cleanup/policies": {
    module: cleanupPoliciesRoute,
    example: { url: "/api/v1/cleanup/policies", body: () => ({ ...RUN, name: `p-${++seq}`, schedule: "off" }) },
  },
  "GET /api/v1/cleanup/policies/[id]": {
    module: cleanupPolicyRoute,
    example: { url: "/api/v1/cleanup/policies/:policy", params: { id: ":policy" } },
  },
  "PATCH /api/v1/cleanup/policies/[id]": {
    module: cleanupPolicyRoute,
    example: { url: "/api/v1/cleanup/policies/:policy", params: { id: ":policy" }, body: () => ({ enabled: false }) },
  },
  "DELETE /api/v1/cleanup/policies/[id]": {
    module: cleanupPolicyRoute,
    example: { url: "/api/v1/cleanup/policies/:doomed", params: { id: ":doomed" } },
  },
  "POST /api/v1/cleanup/policies/[id]/run": {
    module: cleanupPolicyRunRoute,
    example: {
      url: "/api/v1/cleanup/policies/:policy/run",
      params: { id: ":policy" },
      body: () => ({ confirmBytes: 0 }),
    },
  },
  "POST /api/v1/cleanup/policies/[id]/confirm": {
    module: cleanupPolicyConfirmRoute,
    example: {
      url: "/api/v1/cleanup/policies/:policy/confirm",
      params: { id: ":policy" },
      body: () => ({ confirmBytes: 0 }),
    },
  },
  "POST /api/v1/jobs/claim": { module: jobClaimRoute, example: { url: "/api/v1/jobs/claim" } },
  "POST /api/v1/jobs/[id]/progress": {
    module: jobProgressRoute,
    example: { url: `/api/v1/jobs/${NO_ID}/progress`, params: { id: NO_ID }, body: () => ({ leaseToken: "slt_x" }) },
  },
  "POST /api/v1/jobs/[id]/result": {
    module: jobResultRoute,
    example: { url: `/api/v1/jobs/${NO_ID}/result`, params: { id: NO_ID }, body: () => RESULT },
  },
};

const CALLERS = [
  "anonymous",
  "member session",
  "viewer session",
  "admin session",
  "viewer token",
  "admin token",
  "revoked token",
  "expired token",
  "workspace token",
] as const;
type CallerKind = (typeof CALLERS)[number];

/** What each kind of caller must get from a route with this access rule (null: allowed, so not 401/403). */
function expected(rule: RouteRule, caller: CallerKind): number | null {
  if (rule.access === "public") {
    // Workspace endpoints take only their own credentials: no dashboard session or token opens them, and a
    // workspace token works only there.
    if (
      rule.path.startsWith("/api/v1/reports") ||
      rule.path.startsWith("/api/v1/jobs/") ||
      rule.path === "/api/v1/inbox/outcomes"
    )
      return caller === "workspace token" ? null : 401;
    if (rule.path === "/api/v1/enroll") return 401; // no X-Enrollment-Key in these calls
    // the enrollment key (not sent here) or the workspace's own token
    if (rule.path === "/api/v1/report-blockers") return caller === "workspace token" ? null : 401;
    return null;
  }
  if (rule.access === "setup") return 409; // an admin exists: refused for everyone
  if (["anonymous", "revoked token", "expired token", "workspace token"].includes(caller)) return 401;
  if (rule.access === "admin" && caller.startsWith("viewer")) return 403;
  if (rule.access !== "member" && caller.startsWith("member")) return 403;
  return null;
}

describeEachDatabase("access to every route", (t) => {
  let p: Principals;
  let victimToken = "";
  let unsubscribeSig = "";
  const policies = { policy: "", doomed: "" };
  const headersFor: Partial<Record<CallerKind, Record<string, string>>> = {};
  const bodies: string[] = [];
  const logs: string[] = [];
  const secrets: string[] = [];

  async function call(rule: RouteRule, headers: Record<string, string>): Promise<Response> {
    const { module, example } = EXAMPLES[`${rule.method} ${rule.path}`];
    const subst = (s: string) =>
      s
        .replace(":viewer", p.viewer.id)
        .replace(":victim", victimToken)
        .replace(":policy", policies.policy)
        .replace(":doomed", policies.doomed)
        .replace(":sig", encodeURIComponent(unsubscribeSig));
    const params = Object.fromEntries(Object.entries(example.params ?? {}).map(([k, v]) => [k, subst(v)]));
    const body = example.body?.();
    const request = new Request(`${BASE}${subst(example.url)}`, {
      method: rule.method,
      headers: { ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const res = await (module[rule.method] as Handler)(request, ctx(params));
    bodies.push(await res.clone().text());
    return res;
  }

  beforeAll(async () => {
    for (const m of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, m).mockImplementation(
        (...args: unknown[]) =>
          void logs.push(
            args
              .map((a) =>
                a instanceof Error ? `${a.message} ${a.stack}` : typeof a === "string" ? a : JSON.stringify(a),
              )
              .join(" "),
          ),
      );
    }
    serveRoutesFrom(t.current);
    const db = t.current.db;
    p = await makePrincipals(t.current, "acc");
    const ws = await enrollWorkspace(
      db,
      { id: WS, name: "access", owner: "erin" },
      (await getEnrollmentKey(db)).key,
      null,
    );
    const revoked = await createApiToken(db, p.admin.id, { name: "revoked", role: "admin" }, TEST_WHO);
    await revokeApiToken(db, revoked.info.id, TEST_WHO);
    const expired = await createApiToken(
      db,
      p.admin.id,
      { name: "expired", role: "admin", expiresInDays: 1 },
      TEST_WHO,
    );
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expired.info.id));
    victimToken = (await createApiToken(db, p.admin.id, { name: "victim", role: "viewer" }, TEST_WHO)).info.id;
    unsubscribeSig = unsubscribeSignature(await authSecret(db), "erin");
    const adminActor = { actor: { type: "user" as const, id: p.admin.id, label: p.admin.email } };
    const policy = {
      ...RUN,
      recipe: "claude-code-debug" as const,
      schedule: "off" as const,
      enabled: true,
      dryRun: false,
      trashDays: 7,
      minAgeHours: 24,
      countStatusChanges: false,
      expiresDays: 7,
      runAtMinute: 180,
      runWeekday: 1,
    };
    policies.policy = (await createPolicy(db, { ...policy, name: "kept" }, adminActor)).id;
    policies.doomed = (await createPolicy(db, { ...policy, name: "doomed" }, adminActor)).id;
    // A member, as "Sign in with Coder" makes one: the owner of the workspace above.
    const member = await createUser(
      db,
      { email: "member-acc@example.com", password: "member-acc-password-1", role: "viewer" },
      TEST_WHO,
    );
    await db.update(users).set({ role: "member", coderUsername: "erin" }).where(eq(users.id, member.id));
    const memberCookie = await signIn("member-acc@example.com", "member-acc-password-1");
    Object.assign(headersFor, {
      anonymous: {},
      "member session": { cookie: memberCookie },
      "viewer session": { cookie: p.viewer.cookie },
      "admin session": { cookie: p.admin.cookie },
      "viewer token": { authorization: `Bearer ${p.viewerToken}` },
      "admin token": { authorization: `Bearer ${p.adminToken}` },
      "revoked token": { authorization: `Bearer ${revoked.token}` },
      "expired token": { authorization: `Bearer ${expired.token}` },
      "workspace token": { authorization: `Bearer ${ws.token}` },
    });
    secrets.push(
      p.admin.password,
      p.viewer.password,
      p.adminToken,
      p.viewerToken,
      revoked.token,
      expired.token,
      ws.token,
    );
    secrets.push((await getEnrollmentKey(db)).key, await authSecret(db));
    secrets.push(...[p.admin.cookie, p.viewer.cookie].map((c) => decodeURIComponent(c.split("=")[1]).split(".")[0]));
  });
  afterAll(() => vi.restoreAllMocks());

  it("lists every route file in the access table", () => {
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.name === "route.ts") {
          const route = `/${path.relative("app", path.dirname(full))}`;
          for (const m of fs
            .readFileSync(full, "utf8")
            .matchAll(
              /export const (GET|POST|PUT|PATCH|DELETE)\b|export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g,
            )) {
            found.push(`${m[1] ?? m[2]} ${route}`);
          }
        }
      }
    };
    walk(path.join("app", "api", "v1"));
    walk(path.join("app", "metrics"));
    walk(path.join("app", "terraform"));
    walk(path.join("app", ".well-known"));
    expect(new Set(found)).toEqual(new Set(ROUTE_ACCESS.map((r) => `${r.method} ${r.path}`)));
    expect(new Set(Object.keys(EXAMPLES))).toEqual(new Set(found));
  });

  for (const rule of ROUTE_ACCESS) {
    it(`${rule.method} ${rule.path} (${rule.access})`, async () => {
      const statuses: Record<string, number> = {};
      for (const caller of CALLERS) {
        const res = await call(rule, headersFor[caller]!);
        statuses[caller] = res.status;
        const want = expected(rule, caller);
        if (want === null) {
          expect([401, 403], `${caller}: ${bodies.at(-1)}`).not.toContain(res.status);
          expect(res.status, `${caller}: ${bodies.at(-1)}`).toBeLessThan(500);
        } else {
          expect(res.status, `${caller}: ${bodies.at(-1)}`).toBe(want);
          expect((await res.json()).error.code).toBeTypeOf("string");
        }
      }
      // Public routes ignore dashboard credentials: every caller gets the same answer.
      if (rule.access === "public" && rule.method === "GET") expect(new Set(Object.values(statuses)).size).toBe(1);
    });
  }

  it("validates parameters once the caller is known (422, before touching the data)", async () => {
    const get = (path: string, module: Record<string, unknown>, params: Record<string, string> = {}) =>
      (module.GET as Handler)(new Request(`${BASE}${path}`, { headers: { cookie: p.viewer.cookie } }), ctx(params));
    for (const res of [
      await get("/api/v1/fleet/overview?range=1y", overviewRoute),
      await get("/api/v1/fleet/overview?range=custom", overviewRoute),
      await get("/api/v1/workspaces?sort=bogus", workspacesRoute),
      await get("/api/v1/workspaces?pageSize=100000", workspacesRoute),
      await get("/api/v1/findings?severity=urgent", findingsRoute),
      await get("/api/v1/workspaces/x?range=custom&from=2026-02-01&to=2026-01-01", workspaceRoute, { id: "x" }),
    ]) {
      expect(res.status).toBe(422);
      expect((await res.json()).error.code).toBe("invalid");
    }
    const put = await rulesRoute.PUT(
      new Request(`${BASE}/api/v1/findings/rules`, {
        method: "PUT",
        headers: { cookie: p.admin.cookie, "content-type": "application/json" },
        body: JSON.stringify({ rules: [{ id: "volume-filling", params: { days: -1 } }] }),
      }),
      ctx(),
    );
    expect(put.status).toBe(422);
  });

  it("changed nothing for the callers it refused (the audit log names only admins, but for downloads)", async () => {
    // Exports are reads that every viewer may make; they are audited whoever makes them.
    const rows = await t.current.db.execute(
      // The unsubscribe link is a credential of its own, signed for one owner: whoever holds it may use it.
      sql`select distinct actor_label from audit_log where action not like 'auth.%' and action <> 'export.downloaded'
        and action <> 'notifications.unsubscribed'`,
    );
    const actors = (rows as unknown as { rows: { actor_label: string }[] }).rows.map((r) => r.actor_label);
    expect(actors.length).toBeGreaterThan(0);
    for (const a of actors) expect([p.admin.email, "admin-acc", TEST_WHO.actor.label]).toContain(a);
  });

  it("puts no secret in any response body or log line", async () => {
    expect(bodies.length).toBeGreaterThan(100);
    // Better Auth logged the refused tokens: the capture works.
    expect(logs.some((l) => /API key/i.test(l))).toBe(true);
    // The enrollment key after the rotations above, too.
    secrets.push((await getEnrollmentKey(t.current.db)).key);
    const created = new Set(bodies.filter((b) => /"token":"sdt_/.test(b)));
    for (const s of secrets) {
      expect(s.length).toBeGreaterThan(8);
      for (const b of bodies) if (!created.has(b)) expect(b.includes(s), `a secret in ${b.slice(0, 200)}`).toBe(false);
      for (const l of logs) expect(l.includes(s), `a secret in the log: ${l.slice(0, 200)}`).toBe(false);
    }
  });
});
