// The cleanup protocol, written once: what an admin asks for (a run), what the reporter claims (a job) and
// what it sends back (a result). The server validates with these schemas; the reporter imports the types only
// (it bundles no zod). Sizes are exact integers of bytes; times ISO 8601.
import { z } from "zod";
import { LIMITS } from "@/lib/report-format/constants";
import { relativePath } from "@/lib/report-format/schema";
import { globProblem } from "@/lib/catalog/globs";
import { RECIPE_IDS, onlyDeleted, type RecipeId } from "@/lib/catalog/recipes";
import { MIN_AGE_HOURS, TRASH_DAYS } from "./defaults";

const bytes = z.number().int().nonnegative().max(LIMITS.maxBytes);
const count = z.number().int().nonnegative().max(LIMITS.maxCount);
const name = z.string().min(1).max(200);

/** Older than N days, keep the newest N units, cap the root at N bytes (oldest first): at least one. */
export const recipeParams = z
  .object({
    olderThanDays: z.number().int().min(0).max(3650).optional(),
    keepNewest: z.number().int().min(0).max(1_000_000).optional(),
    capBytes: bytes.optional(),
  })
  .strict()
  .refine((p) => p.olderThanDays !== undefined || p.keepNewest !== undefined || p.capBytes !== undefined, {
    message: "give at least one of olderThanDays, keepNewest, capBytes",
  });
export type RecipeParams = z.infer<typeof recipeParams>;

/** A custom rule: files matching a glob inside one root; refused when the glob could leave it. */
export const customTarget = z
  .object({
    rootKey: z.string().min(1).max(200),
    glob: z
      .string()
      .min(1)
      .max(500)
      .refine((g) => !g.startsWith("/") && !g.split("/").includes(".."), "must stay inside the root: relative, no '..'")
      .superRefine((g, ctx) => {
        const problem = globProblem(g);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    unit: z.enum(["file", "dir"]).default("file"),
  })
  .strict();

export const scope = z.union([
  z.object({ workspaceIds: z.array(z.string().min(1).max(100)).min(1).max(10_000) }).strict(),
  z.object({ owners: z.array(name).min(1).max(1000) }).strict(),
  z.object({ templates: z.array(name).min(1).max(1000) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export type Scope = z.infer<typeof scope>;

/** A run's fields, before the rule that ties them (what a policy's PATCH derives from). */
export const runRequestFields = z
  .object({
    recipe: z.enum(RECIPE_IDS).optional(),
    custom: customTarget.optional(),
    params: recipeParams,
    scope,
    dryRun: z.boolean().default(false),
    action: z.enum(["delete", "trash"]).optional(),
    /** With action "trash": days the units stay restorable before the reporter empties them. */
    trashDays: z.number().int().min(TRASH_DAYS.min).max(TRASH_DAYS.max).default(TRASH_DAYS.default),
    /** Units whose newest file was modified within this many hours are skipped. */
    minAgeHours: z.number().int().min(MIN_AGE_HOURS.min).max(MIN_AGE_HOURS.max).default(MIN_AGE_HOURS.default),
    /**
     * Count status changes (ctime: owner, mode, links) as activity in a unit's age, besides modifications.
     * Off by default: on Kubernetes workspaces (fsGroup) and templates that chown the home at start, every
     * ctime is the last start. It helps where files were restored from a backup with their old mtimes.
     */
    countStatusChanges: z.boolean().default(false),
  })
  .strict();

/** Body of POST /api/v1/cleanup/runs and /preview. */
export const runRequest = runRequestFields
  .refine((r) => (r.recipe === undefined) !== (r.custom === undefined), {
    message: "give exactly one of recipe, custom",
  })
  .refine((r) => !(r.action === "trash" && onlyDeleted(r)), {
    message:
      "a package cache's units are only ever deleted: a package cache in the trash would free nothing until it expires",
    path: ["action"],
  });
export type RunRequest = z.infer<typeof runRequest>;

/**
 * The one file a truncate run empties: a log of the workspace's latest report, where it lies (its root's report
 * key and its path in that root, exact, never a glob) and the size the admin confirmed.
 */
export const truncateTarget = z.object({ rootKey: z.string().min(1).max(200), path: relativePath, bytes }).strict();
export type TruncateTarget = z.infer<typeof truncateTarget>;

export const JOB_KINDS = ["cleanup", "restore", "purge-trash", "truncate"] as const;

/**
 * Kinds a reporter acts on only when its claim names them: a reporter from before a kind would take a job of it
 * for another kind (reporters before truncate ran any kind they did not know as purge-trash).
 */
export const NAMED_JOB_KINDS: readonly (typeof JOB_KINDS)[number][] = ["truncate"];

/** Body of POST /api/v1/jobs/claim: the kinds this reporter knows (absent or empty from older reporters: `{}`). */
export const claimRequest = z.object({ kinds: z.array(z.enum(JOB_KINDS)).max(JOB_KINDS.length).optional() }).strict();

/** What a reporter receives when it claims its workspace's jobs (POST /api/v1/jobs/claim, workspace token). */
export type ClaimedJob = {
  id: string;
  kind: (typeof JOB_KINDS)[number];
  /** Must come back with the result: a result from a stale holder (lease ran out, job claimed again) is refused. */
  leaseToken: string;
  leaseExpiresAt: string;
  recipe: RecipeId | null;
  custom: z.infer<typeof customTarget> | null;
  params: RecipeParams | null;
  dryRun: boolean;
  action: "delete" | "trash";
  trashDays: number;
  minAgeHours: number;
  /** Age units by mtime and ctime, not mtime alone (see runRequest). Absent from older dashboards: false. */
  countStatusChanges?: boolean;
  limits: {
    maxUnits: number;
    maxBytes: number;
    /** Stop when errors pass this share of attempts, once at least minErrors attempts failed. */
    errorPct: number;
    minErrors: number;
  };
  /** restore / purge-trash: the cleanup job whose trashed units to act on. */
  sourceJobId: string | null;
  /**
   * cleanup: the paths (relative to home) the workspace's owner keeps (My storage's Keep), skipped as the protect
   * file's are. Absent from older dashboards: none.
   */
  keep?: string[];
  /** truncate: the file to empty. Absent from older dashboards (which have no truncate jobs). */
  truncate?: TruncateTarget | null;
};
export const SKIP_REASONS = [
  "recent", // a file of the unit was modified within minAgeHours
  "open", // a process holds a file of the unit open or locked
  "protected", // matched the owner's protect file
  "changed", // an entry's identity, size, mtime or ctime differed from the plan when re-checked right before acting
  "outside-root", // real path left the root, or another file system
  "kept", // among the newest keepNewest units
  "limit", // the job's unit or byte cap was reached
  "error-rate", // the job stopped on a rising error rate
] as const;

const unitOutcome = z
  .object({
    /** Relative to home. */
    path: relativePath,
    bytes,
    /** deleted / trashed / restored / purged / truncated (bytes: what it freed), or would-* in a dry run. */
    action: z.enum(["deleted", "trashed", "restored", "purged", "truncated", "would-delete", "would-trash"]),
    /** Where a trashed unit went, relative to home. */
    trashPath: relativePath.optional(),
    newestMtime: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();
const skipped = z.object({ path: relativePath, bytes, reason: z.enum(SKIP_REASONS) }).strict();
const jobError = z.object({ path: z.string().max(LIMITS.pathLength), message: z.string().max(500) }).strict();

/** Body of POST /api/v1/jobs/{id}/result (workspace token). */
export const jobResult = z
  .object({
    leaseToken: z.string().min(1).max(200),
    status: z.enum(["done", "failed"]),
    unitsActed: count,
    bytesActed: bytes,
    units: z.array(unitOutcome).max(100_000),
    skipped: z.array(skipped).max(100_000),
    errors: z.array(jobError).max(1000),
    /** The last lines of the reporter's local cleanup log. */
    logTail: z.array(z.string().max(1000)).max(200),
    startedAt: z.iso.datetime({ offset: true }),
    finishedAt: z.iso.datetime({ offset: true }),
  })
  .strict();
export type JobResult = z.infer<typeof jobResult>;
