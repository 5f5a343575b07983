import { z } from "zod";
import { RECIPE_IDS } from "@/lib/catalog/recipes";
import { SHOWN_JOB_STATES } from "@/lib/cleanup/job-states";
import { runRequest, runRequestFields, truncateTarget } from "@/lib/cleanup/protocol";
import { DEFAULT_RUN_AT_MINUTE, DEFAULT_RUN_WEEKDAY } from "@/lib/cleanup/schedule";
import { DEFAULT_EXPIRES_DAYS, POLICY_SCHEDULES } from "@/lib/cleanup/types";
import { NotFoundError } from "@/lib/errors";
import { toGetter, type SearchParamsInput } from "./search-params";

// Parameters of the cleanup endpoints and pages (the run request itself is the contract's runRequest).

const expiresDays = z.number().int().min(1).max(90).default(DEFAULT_EXPIRES_DAYS);

/** Workspaces silent past the silent-workspace rule are left out of a run unless it asks for them (absent: out). */
const includeSilent = z.boolean().optional();

/** POST /api/v1/cleanup/preview: the body of a run. */
export const previewRequest = runRequest.safeExtend({ includeSilent });
export type PreviewRequest = z.infer<typeof previewRequest>;

/** POST /api/v1/cleanup/preview/free-space: every recipe's previews on one workspace, in one answer. */
export const freeSpaceRequest = z.object({ workspaceId: z.string().min(1).max(100) }).strict();

/** POST /api/v1/cleanup/runs: a run, and the preview total the admin confirmed. */
export const createRunRequest = runRequest.safeExtend({
  includeSilent,
  confirmBytes: z.number().int().nonnegative(),
  /** Days a job waits for its workspace's reporter before it expires. */
  expiresDays,
});
export type CreateRunRequest = z.infer<typeof createRunRequest>;

/** POST /api/v1/cleanup/trash/purge */
export const purgeTrashRequest = z
  .object({ workspaceIds: z.array(z.string().min(1).max(100)).min(1).max(10_000) })
  .strict();

/**
 * POST /api/v1/cleanup/truncate: one log file of one workspace's latest report, and the size the admin saw in
 * the confirmation (`confirmBytes`).
 */
export const truncateRequest = truncateTarget
  .omit({ bytes: true })
  .extend({ workspaceId: z.string().min(1).max(100), confirmBytes: z.number().int().nonnegative() })
  .strict();
export type TruncateRequest = z.infer<typeof truncateRequest>;

/** POST /api/v1/jobs/{id}/progress */
export const progressRequest = z.object({ leaseToken: z.string().min(1).max(200) }).strict();

const name = z.string().trim().min(1).max(100);
const schedule = z.enum(POLICY_SCHEDULES);
/** Minutes after 00:00 UTC. */
const runAtMinute = z
  .number()
  .int()
  .min(0)
  .max(24 * 60 - 1);
/** 0 = Sunday … 6 = Saturday (weekly policies). */
const runWeekday = z.number().int().min(0).max(6);

/** A PATCH body's fields from a create request's: each optional and nullable, its default taken off. */
function patchShape<S extends z.ZodRawShape>(shape: S) {
  const patch = Object.entries(shape).map(([key, field]) => [
    key,
    ((field instanceof z.ZodDefault ? field.unwrap() : field) as z.ZodType).nullable().optional(),
  ]);
  return Object.fromEntries(patch) as {
    [K in keyof S]: z.ZodOptional<z.ZodNullable<S[K] extends z.ZodDefault<infer T> ? T : S[K]>>;
  };
}

/** What a policy has besides the run it starts. */
const policyFields = {
  name,
  schedule,
  runAtMinute: runAtMinute.default(DEFAULT_RUN_AT_MINUTE),
  runWeekday: runWeekday.default(DEFAULT_RUN_WEEKDAY),
  enabled: z.boolean().default(true),
  expiresDays,
};

/** POST /api/v1/cleanup/policies */
export const createPolicyRequest = runRequest.safeExtend(policyFields);
export type CreatePolicyRequest = z.infer<typeof createPolicyRequest>;

/**
 * PATCH /api/v1/cleanup/policies/{id}: any field of the create request, each validated as there. An absent field
 * keeps the stored value: its default is taken off (`.partial()` would fill it in and so reset the field).
 * null removes a field (recipe: null with a custom rule switches the policy to it); the policy that results
 * must still be a valid policy, which the rule tying the fields (exactly one of recipe, custom) checks then.
 */
export const updatePolicyRequest = z.object(patchShape(runRequestFields.safeExtend(policyFields).shape)).strict();
export type UpdatePolicyRequest = z.infer<typeof updatePolicyRequest>;

/**
 * POST /api/v1/cleanup/policies/{id}/confirm and /run: the preview figure the admin saw. Confirming arms the
 * policy's scheduled runs; "run now" queues one run. Either is refused when the preview has moved since.
 */
export const confirmPolicyRequest = z.object({ confirmBytes: z.number().int().nonnegative() }).strict();

/** GET /api/v1/cleanup/runs?cursor=&limit= ; cursor is "<ISO time>_<run id>" of the last run seen. */
export const runListQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_[0-9a-f-]{36}$/, "is not a cursor from a previous page")
    .transform((s) => ({ at: new Date(s.slice(0, s.lastIndexOf("_"))), id: s.slice(s.lastIndexOf("_") + 1) }))
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const encodeRunCursor = (at: Date | string, id: string) => `${new Date(at).toISOString()}_${id}`;

/**
 * How a run's jobs are listed: most to free first (the preview), most freed first, by workspace (owner, then
 * name), or most recently finished first.
 */
export const RUN_JOB_SORTS = ["preview", "freed", "workspace", "finished"] as const;
export type RunJobSort = (typeof RUN_JOB_SORTS)[number];
/** The run page's view of its jobs, in its URL: ?sort=&state= (a state shows only the jobs in it). */
export type RunJobsView = { sort: RunJobSort; state?: (typeof SHOWN_JOB_STATES)[number] };
export const RUN_JOBS_PAGE = 50;

/** GET /api/v1/cleanup/runs/{id}?sort=&state=&cursor=&limit= ; cursor is the nextCursor of the page before. */
export const runJobsQuery = z.object({
  sort: z.enum(RUN_JOB_SORTS).default("preview"),
  state: z.enum(SHOWN_JOB_STATES).optional(),
  cursor: z
    .string()
    .max(1000)
    .regex(/^[\w-]+$/, "is not a cursor from a previous page")
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(RUN_JOBS_PAGE),
});
export type RunJobsQuery = z.infer<typeof runJobsQuery>;

/** The view from the page's URL: anything invalid falls back to the default (every job, most to free first). */
export function parseRunJobsSearchParams(params: SearchParamsInput): RunJobsView {
  const p = toGetter(params);
  const sort = z.enum(RUN_JOB_SORTS).safeParse(p.get("sort"));
  const state = z.enum(SHOWN_JOB_STATES).safeParse(p.get("state"));
  return { sort: sort.success ? sort.data : "preview", ...(state.success ? { state: state.data } : {}) };
}

export const uuidParam = z.uuid();

/**
 * /cleanup/new?recipe=&workspace=&agent=&free=1: what a finding or page linked here with (bad values are left
 * out). free=1 with a workspace: every recipe's preview on it, to pick from ("Free space here").
 */
export type NewRunState = { recipe?: (typeof RECIPE_IDS)[number]; workspace?: string; agent?: string; free?: true };
export function parseNewRunSearchParams(params: SearchParamsInput): NewRunState {
  const p = toGetter(params);
  const recipe = z.enum(RECIPE_IDS).safeParse(p.get("recipe"));
  const text = z.string().trim().min(1).max(100);
  const workspace = text.safeParse(p.get("workspace"));
  const agent = text.safeParse(p.get("agent"));
  return {
    ...(recipe.success ? { recipe: recipe.data } : {}),
    ...(workspace.success ? { workspace: workspace.data } : {}),
    ...(agent.success ? { agent: agent.data } : {}),
    ...(workspace.success && p.get("free") === "1" ? { free: true as const } : {}),
  };
}

/** A run, job or policy id from the URL: anything but a UUID names nothing (404, not a database error). */
export function idParam(value: string, what: string): string {
  const parsed = uuidParam.safeParse(value);
  if (!parsed.success) throw new NotFoundError(`No ${what} ${value}.`);
  return parsed.data;
}
