import { claimRequest, jobResult } from "@/lib/cleanup/protocol";
import { rulesUpdateRequest } from "@/lib/findings/rules";
import { reportBlockerRequest, reportBlockerResponse } from "@/lib/report-format/blockers";
import { discoveryResponse, moduleVersionsResponse } from "@/lib/terraform/module";
import { enrollRequest, report, reportBatch } from "@/lib/report-format/schema";
import { auditQuery } from "@/lib/validations/audit";
import { backupQuery } from "@/lib/validations/backup";
import {
  noticePreferencesChange,
  notificationsQuery,
  noticeTestRequest,
  unsubscribeQuery,
} from "@/lib/validations/notifications";
import { notifySettingsUpdate } from "@/lib/validations/notify-settings";
import { reporterRollout } from "@/lib/validations/reporter-rollout";
import { createTokenRequest, createUserRequest, setupRequest, updateUserRequest } from "@/lib/validations/auth";
import { progressRequest } from "@/lib/validations/cleanup";
import { inboxOutcomes } from "@/lib/validations/coder-inbox";
import { findingsQuery } from "@/lib/validations/findings";
import { rangeQuery } from "@/lib/validations/range";
import {
  enrollResponse,
  healthResponse,
  inboxOutcomesResponse,
  ingestResponse,
  jobProgressResponse,
  jobResultResponse,
} from "@/lib/validations/responses";
import { retentionUpdate } from "@/lib/validations/settings";
import { usageQuery } from "@/lib/validations/usage";
import { atRiskQuery } from "@/lib/validations/volumes";
import { workspaceDetailQuery, workspaceListQuery } from "@/lib/validations/workspaces";
import { CLEANUP_OPERATIONS } from "./cleanup-operations";
import { EXPORT_OPERATIONS } from "./export-operations";
import { OWNER_OPERATIONS } from "./owner-operations";
import type { Operation } from "./operation";

// What each route of lib/auth/route-access.ts takes and answers, for the OpenAPI document: the zod schemas the
// route handlers validate with (query, body), and the response's schema where one exists in zod, else the name
// of the TypeScript type it answers with. Keyed like the access table ("METHOD /path/[param]").

export const OPERATIONS: Record<string, Operation> = {
  "POST /api/v1/enroll": {
    summary: "Enroll a workspace: its identity in, its workspace token out",
    tag: "workspaces (reporter)",
    body: enrollRequest,
    response: enrollResponse,
    auth: "enrollment-key",
  },
  "POST /api/v1/report-blockers": {
    summary:
      "Say why a workspace cannot run the reporter (no runtime, unsupported platform, a refused download); enrolls nothing",
    tag: "workspaces (reporter)",
    body: reportBlockerRequest,
    response: reportBlockerResponse,
    auth: "enrollment-key",
  },
  "GET /.well-known/terraform.json": {
    summary: "Terraform's service discovery: where this host's module registry is",
    tag: "terraform module",
    response: discoveryResponse,
  },
  "GET /terraform/modules/v1/[namespace]/[name]/[provider]/versions": {
    summary:
      "The module registry protocol: the reporter module's versions (this dashboard's own; 404 for any other module)",
    tag: "terraform module",
    response: moduleVersionsResponse,
  },
  "GET /terraform/modules/v1/[namespace]/[name]/[provider]/[version]/download": {
    summary: "The module registry protocol: the archive's location in X-Terraform-Get (404 for another version)",
    tag: "terraform module",
    status: 204,
  },
  "POST /api/v1/reports": {
    summary: "Send a report (gzip accepted, at most 4 MiB decoded); stored once per report id",
    tag: "workspaces (reporter)",
    body: report,
    response: ingestResponse,
    auth: "workspace-token",
  },
  "POST /api/v1/reports/batch": {
    summary:
      "Send a spooled backlog of 1 to 20 reports; each is stored once by its id and answered on its own (stored, duplicate, rejected, retry)",
    tag: "workspaces (reporter)",
    body: reportBatch,
    responseType: "ReportBatchResponse",
    auth: "workspace-token",
  },
  "POST /api/v1/inbox/outcomes": {
    summary:
      "Say what became of the Coder Inbox notices a report's answer handed this workspace (delivered, refused by Coder, Coder unreachable)",
    tag: "workspaces (reporter)",
    body: inboxOutcomes,
    response: inboxOutcomesResponse,
    auth: "workspace-token",
  },
  "POST /api/v1/jobs/claim": {
    summary: "Claim this workspace's waiting cleanup jobs, each with a new lease (truncate ones only when named)",
    tag: "workspaces (reporter)",
    body: claimRequest,
    responseType: "{ jobs: ClaimedJob[] }",
    auth: "workspace-token",
  },
  "POST /api/v1/jobs/[id]/progress": {
    summary: "Extend a job's lease; says whether its run was cancelled",
    tag: "workspaces (reporter)",
    body: progressRequest,
    response: jobProgressResponse,
    auth: "workspace-token",
  },
  "POST /api/v1/jobs/[id]/result": {
    summary: "A job's result, stored once under its lease (also sent in X-Lease-Token, checked before the body)",
    tag: "workspaces (reporter)",
    body: jobResult,
    response: jobResultResponse,
    auth: "workspace-token",
  },
  "GET /api/v1/reporter/[file]": {
    summary:
      "The reporter (file reporter.mjs) or its SHA-256 (reporter.mjs.sha256), also at /reporter.mjs: the version the " +
      "rollout gives the workspace whose token is sent as a Bearer token, else the default version",
    tag: "workspaces (reporter)",
    produces: "script",
  },
  "GET /api/v1/schema/report.json": {
    summary: "The report format as JSON Schema",
    tag: "meta",
    responseType: "JSON Schema",
  },
  "GET /api/v1/health": { summary: "Liveness and the database's reachability", tag: "meta", response: healthResponse },
  "GET /api/v1/openapi.json": { summary: "This document", tag: "meta", responseType: "OpenAPI 3.1 document" },
  "GET /metrics": {
    summary: "Prometheus metrics (text exposition format)",
    tag: "meta",
    produces: "prometheus",
  },
  "POST /api/v1/setup": { summary: "Create the first admin", tag: "users", body: setupRequest, status: 201 },
  "GET /api/v1/me": { summary: "The caller", tag: "users", responseType: "Caller" },
  "GET /api/v1/admins": { summary: "The admins, whom to ask", tag: "users", responseType: "{ admins }" },
  "GET /api/v1/fleet/overview": {
    summary: "Fleet totals, growth, series by agent, top lists, volumes at risk, silent workspaces, findings",
    tag: "fleet",
    query: rangeQuery,
    responseType: "FleetOverview",
  },
  "GET /api/v1/usage": {
    summary:
      "Usage by organization, group, owner, template or agent over a month or range: average, peak, byte-days, growth, freed",
    tag: "fleet",
    query: usageQuery,
    responseType: "UsageReport",
  },
  "POST /api/v1/teams/upload": {
    summary: "Upload an owner → team mapping (CSV: owner,team) for the usage by group, without a Coder sync",
    tag: "fleet",
    responseType: "TeamUpload",
  },
  "GET /api/v1/fleet/restart": {
    summary: "The workspaces that lose agent data at a restart, grouped by template",
    tag: "fleet",
    responseType: "RestartRisk",
  },
  "GET /api/v1/volumes/at-risk": {
    summary: "Volumes full or filling within N days, fewest days first, paged by key, with their growing roots",
    tag: "fleet",
    query: atRiskQuery,
    responseType: "AtRiskPage",
  },
  "GET /api/v1/workspaces": {
    summary: "Workspaces, paged, sorted and filtered",
    tag: "workspaces",
    query: workspaceListQuery,
    responseType: "WorkspaceList",
  },
  "GET /api/v1/workspaces/[id]": {
    summary: "One workspace: usage by root over time, breakdowns, volume forecast, findings, reports",
    tag: "workspaces",
    query: workspaceDetailQuery,
    responseType: "WorkspaceDetail",
  },
  "DELETE /api/v1/workspaces/[id]/token": {
    summary: "Forget a workspace's token so it can enroll again",
    tag: "workspaces",
  },
  "GET /api/v1/agents/[agent]": {
    summary: "One agent across the fleet",
    tag: "fleet",
    query: rangeQuery,
    responseType: "AgentDetail",
  },
  "GET /api/v1/modules/[namespace]/[module]": {
    summary: "One module's folder (~/.coder-modules/<namespace>/<module>) across the fleet",
    tag: "fleet",
    query: rangeQuery,
    responseType: "ModuleDetail",
  },
  "GET /api/v1/findings": {
    summary: "Findings, most urgent first, a page at a time (keyset)",
    tag: "findings",
    query: findingsQuery,
    responseType: "FindingsList",
  },
  "GET /api/v1/findings/rules": {
    summary: "The findings' rules and thresholds",
    tag: "findings",
    responseType: "RulesResponse",
  },
  "PUT /api/v1/findings/rules": {
    summary: "Change rules and thresholds",
    tag: "findings",
    body: rulesUpdateRequest,
    responseType: "RulesResponse",
  },
  "GET /api/v1/users": { summary: "Users", tag: "users", responseType: "{ users }" },
  "POST /api/v1/users": { summary: "Create or invite a user", tag: "users", body: createUserRequest, status: 201 },
  "PATCH /api/v1/users/[id]": {
    summary: "Change a user's role, or disable or enable them",
    tag: "users",
    body: updateUserRequest,
  },
  "GET /api/v1/tokens": { summary: "API tokens (never the tokens themselves)", tag: "users" },
  "POST /api/v1/tokens": {
    summary: "Create an API token (shown once)",
    tag: "users",
    body: createTokenRequest,
    status: 201,
    responseType: "{ token, info }",
  },
  "DELETE /api/v1/tokens/[id]": { summary: "Revoke an API token", tag: "users" },
  "GET /api/v1/backup": {
    summary: "A backup of the dashboard's database, streamed as it is written (docs/backup.md)",
    tag: "backup",
    query: backupQuery,
    produces: "gzip",
  },
  "GET /api/v1/audit": {
    summary: "The audit log, newest first (keyset pages)",
    tag: "audit",
    query: auditQuery,
    responseType: "{ entries, nextCursor }",
  },
  "GET /api/v1/notifications": {
    summary: "Each notice channel's state and the owners' notices of the last 30 days, newest first",
    tag: "notifications",
    query: notificationsQuery,
    responseType: "{ channels, notices, nextCursor }",
  },
  "POST /api/v1/notifications/test": {
    summary:
      "Send one test message on a channel at once, outside the outbox (409 when not configured, 502 with the channel's error)",
    tag: "notifications",
    body: noticeTestRequest,
    responseType: "TestOutcome",
  },
  "GET /api/v1/settings/notifications": {
    summary:
      "The notices' thresholds, digest hour and hourly cap in force, and whether each comes from the environment",
    tag: "notifications",
    responseType: "{ settings: NotifySettingView[] }",
  },
  "PUT /api/v1/settings/notifications": {
    summary: "Change the notices' settings (409 for one its environment variable sets)",
    tag: "notifications",
    body: notifySettingsUpdate,
    responseType: "{ settings: NotifySettingView[] }",
  },
  "GET /api/v1/settings/reporter-rollout": {
    summary:
      "The reporter version served (latest or pinned), the candidate with its share, and per version the " +
      "workspaces reporting with it, with errors, and fallen back from it",
    tag: "settings",
    responseType: "ReporterRolloutView",
  },
  "PUT /api/v1/settings/reporter-rollout": {
    summary: "Choose the reporter version served and the candidate's share (422 for a version not held)",
    tag: "settings",
    body: reporterRollout,
    responseType: "ReporterRolloutView",
  },
  "GET /api/v1/workspaces/[id]/notices": {
    summary: "A workspace's notices of the last 30 days (404 outside the caller's workspaces)",
    tag: "workspaces",
    responseType: "{ notices: WorkspaceNotice[] }",
  },
  "GET /api/v1/notifications/unsubscribe": {
    summary: "The one-click unsubscribe link's confirmation page: a button that POSTs the link (a GET changes nothing)",
    tag: "notifications",
    query: unsubscribeQuery,
    produces: "html",
    auth: "signed-link",
  },
  "POST /api/v1/notifications/unsubscribe": {
    summary:
      "RFC 8058 one-click unsubscribe (body List-Unsubscribe=One-Click): turns the owner's optional email notices off",
    tag: "notifications",
    query: unsubscribeQuery,
    produces: "html",
    auth: "signed-link",
  },
  "GET /api/v1/me/notification-preferences": {
    summary: "The signed-in owner's notices: each optional kind on or off per channel, and the kinds that always go",
    tag: "notifications",
    responseType: "NoticePreferences",
  },
  "PUT /api/v1/me/notification-preferences": {
    summary: "Turn the signed-in owner's optional notices on or off, per channel and kind (others stay)",
    tag: "notifications",
    body: noticePreferencesChange,
    responseType: "NoticePreferences",
  },
  "GET /api/v1/settings/storage": {
    summary: "Retention in effect, the last maintenance run, every table's size",
    tag: "settings",
    responseType: "StorageSettings",
  },
  "PUT /api/v1/settings/retention": {
    summary: "Change retention (days)",
    tag: "settings",
    body: retentionUpdate,
  },
  "POST /api/v1/coder/sync": {
    summary:
      "Sync workspaces from Coder now and answer with the counts once done (409 when not configured, 502 when Coder could not be read)",
    tag: "settings",
    responseType: "SyncOutcome",
  },
  "POST /api/v1/enrollment-key/rotate": { summary: "Rotate the fleet's enrollment key", tag: "settings" },
  ...EXPORT_OPERATIONS,
  ...CLEANUP_OPERATIONS,
  ...OWNER_OPERATIONS,
};
