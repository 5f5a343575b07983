import { describe, expect, it } from "vitest";
import { describeAuditDetails } from "./describe";

describe("an audit entry's details as text", () => {
  it("says what changed in words, never as JSON or with ids", () => {
    const cases: [string, Record<string, unknown> | null, string][] = [
      ["user.role_changed", { from: "viewer", to: "admin" }, "viewer → admin"],
      ["auth.sign_in", { method: "oidc", role: "admin" }, "single sign-on as admin"],
      ["auth.sign_in_failed", { reason: "INVALID_EMAIL_OR_PASSWORD" }, "reason: invalid email or password"],
      [
        "export.downloaded",
        { path: "/api/v1/export/findings.csv", query: { severity: "info" } },
        "/api/v1/export/findings.csv?severity=info",
      ],
      ["settings.retention_changed", { raw: 7, audit: 400 }, "raw 7 days, audit 400 days"],
      [
        "rules.updated",
        { changes: [{ id: "volume-full", severity: "warning", params: { usedPercent: 90 } }] },
        "volume-full: warning, used percent 90",
      ],
      [
        "cleanup.job_result",
        { runId: "8b1f…", status: "succeeded", unitsActed: 12, bytesActed: 1536 * 1024 ** 2, skipped: 0, errors: 0 },
        "status succeeded · units acted 12 · bytes acted 1.5 GiB · skipped 0 · errors 0",
      ],
      ["cleanup.jobs_claimed", { jobs: [{ id: "a", runId: "b", kind: "cleanup", reclaimed: false }] }, "1 job"],
      [
        "cleanup.run_created",
        { recipe: "codex-rollouts", custom: null, dryRun: true, scope: { all: true }, jobs: 4 },
        "recipe codex-rollouts · dry run · scope (all) · jobs 4",
      ],
      ["enrollment_key.rotated", null, ""],
    ];
    for (const [action, details, text] of cases) expect(describeAuditDetails(action, details), action).toBe(text);
  });
});
