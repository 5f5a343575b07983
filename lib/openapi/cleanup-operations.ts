import {
  confirmPolicyRequest,
  createPolicyRequest,
  createRunRequest,
  freeSpaceRequest,
  previewRequest,
  purgeTrashRequest,
  runJobsQuery,
  runListQuery,
  truncateRequest,
  updatePolicyRequest,
} from "@/lib/validations/cleanup";
import type { Operation } from "./operation";

// The admins' cleanup routes: recipes, previews, runs and their jobs, the trash, truncation and policies.
export const CLEANUP_OPERATIONS: Record<string, Operation> = {
  "GET /api/v1/cleanup/recipes": {
    summary: "Cleanup recipes, what each frees fleet-wide now",
    tag: "cleanup",
    responseType: "RecipesResponse",
  },
  "POST /api/v1/cleanup/preview": {
    summary: "What a run would act on, per workspace and in total",
    tag: "cleanup",
    body: previewRequest,
    responseType: "RunPreview",
  },
  "POST /api/v1/cleanup/preview/free-space": {
    summary: "Every recipe's preview on one workspace (defaults and minimum age), its trash, in one answer",
    tag: "cleanup",
    body: freeSpaceRequest,
    responseType: "FreeSpacePreview",
  },
  "GET /api/v1/cleanup/runs": {
    summary: "Cleanup runs, newest first (keyset pages)",
    tag: "cleanup",
    query: runListQuery,
    responseType: "RunList",
  },
  "POST /api/v1/cleanup/runs": {
    summary: "Start a run with the preview's figure; 409 when it moved by over 10 %",
    tag: "cleanup",
    body: createRunRequest,
    status: 201,
    responseType: "{ id, jobs }",
  },
  "GET /api/v1/cleanup/runs/[id]": {
    summary: "A run and a page of its jobs",
    tag: "cleanup",
    query: runJobsQuery,
    responseType: "RunDetail",
  },
  "POST /api/v1/cleanup/runs/[id]/cancel": { summary: "Cancel a run's waiting jobs", tag: "cleanup" },
  "GET /api/v1/cleanup/jobs/[id]": { summary: "One cleanup job with its result", tag: "cleanup" },
  "POST /api/v1/cleanup/jobs/[id]/restore": {
    summary: "Queue a restore of a job that trashed",
    tag: "cleanup",
    status: 201,
  },
  "POST /api/v1/cleanup/trash/purge": {
    summary: "Queue purge-trash jobs",
    tag: "cleanup",
    body: purgeTrashRequest,
    status: 201,
  },
  "POST /api/v1/cleanup/truncate": {
    summary: "Queue the truncation of one log file (never a database); 409 when its size moved by over 10 %",
    tag: "cleanup",
    body: truncateRequest,
    status: 201,
  },
  "GET /api/v1/cleanup/policies": { summary: "Cleanup policies", tag: "cleanup" },
  "POST /api/v1/cleanup/policies": {
    summary: "Create a policy",
    tag: "cleanup",
    body: createPolicyRequest,
    status: 201,
  },
  "GET /api/v1/cleanup/policies/[id]": {
    summary: "A policy, its confirmation or hold, its next run's preview",
    tag: "cleanup",
  },
  "PATCH /api/v1/cleanup/policies/[id]": {
    summary: "Change a policy",
    tag: "cleanup",
    body: updatePolicyRequest,
  },
  "DELETE /api/v1/cleanup/policies/[id]": { summary: "Delete a policy", tag: "cleanup" },
  "POST /api/v1/cleanup/policies/[id]/run": {
    summary: "Queue one run of the policy now, with the figure the admin saw",
    tag: "cleanup",
    body: confirmPolicyRequest,
    status: 201,
  },
  "POST /api/v1/cleanup/policies/[id]/confirm": {
    summary: "Confirm the policy's figure, arming its scheduled runs",
    tag: "cleanup",
    body: confirmPolicyRequest,
  },
};
