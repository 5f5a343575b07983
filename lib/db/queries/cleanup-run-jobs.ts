import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { JobResult } from "@/lib/cleanup/protocol";
import type { ShownJobState } from "@/lib/cleanup/job-states";
import type { JobKind } from "@/lib/cleanup/types";
import { ValidationError } from "@/lib/errors";
import type { RunJobSort, RunJobsQuery } from "@/lib/validations/cleanup";
import { keysetAfter, keysetOrder, type KeyPart } from "../keyset";
import { cleanupJobResults, cleanupJobs, workspaces } from "../schema";
import type { Db } from "../types";
import { shownJobState, shownJobStateIs } from "./cleanup-job-state";

// A run's jobs a page at a time, by key (never OFFSET): a run of 10,000 workspaces opens with one page of
// them, as a run of 10 does. A job's unit lists come on their own request, when someone opens the job.

export type JobRow = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  owner: string;
  kind: JobKind;
  state: ShownJobState;
  rootKeys: string[];
  previewBytes: number;
  previewUnits: number;
  createdAt: string;
  expiresAt: string;
  claimedAt: string | null;
  leaseExpiresAt: string | null;
  attempts: number;
  interruptions: number;
  cancelRequested: boolean;
  /** Why it was cancelled when no admin did it ("The workspace was deleted in Coder."). */
  cancelReason: string | null;
  finishedAt: string | null;
  unitsActed: number | null;
  bytesActed: number | null;
  /** Counts of the stored result (null until the reporter sent one). */
  skippedUnits: number | null;
  errorCount: number | null;
};

export type RunJobsPage = { jobs: JobRow[]; nextCursor: string | null };

// Each order ends with the job id, so no two jobs share a key and a page never repeats or skips one.
const SORT_KEYS: Record<RunJobSort, KeyPart[]> = {
  preview: [
    { expr: sql`${cleanupJobs.previewBytes}`, type: "bigint", dir: "desc" },
    { expr: sql`${cleanupJobs.id}`, type: "uuid", dir: "desc" },
  ],
  freed: [
    { expr: sql`${cleanupJobs.bytesActed}`, type: "bigint", dir: "desc", nulls: "last" },
    { expr: sql`${cleanupJobs.id}`, type: "uuid", dir: "desc" },
  ],
  workspace: [
    { expr: sql`${workspaces.owner}`, type: "text" },
    { expr: sql`${workspaces.name}`, type: "text" },
    { expr: sql`${cleanupJobs.id}`, type: "uuid" },
  ],
  finished: [
    { expr: sql`${cleanupJobs.finishedAt}`, type: "timestamptz", dir: "desc", nulls: "last" },
    { expr: sql`${cleanupJobs.id}`, type: "uuid", dir: "desc" },
  ],
};

/** What each key type's value must look like, so a forged cursor is a 422 and never a failed cast (a 500). */
const VALUE_SHAPES: Record<string, RegExp> = {
  bigint: /^-?\d{1,19}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  timestamptz: /^\d{4}-\d\d-\d\d[ T][\d:.]+([+-]\d\d(:\d\d)?|Z)$/,
  text: /^[^]{0,1000}$/,
};

const encodeCursor = (values: (string | null)[]) => Buffer.from(JSON.stringify(values)).toString("base64url");

function decodeCursor(cursor: string, keys: KeyPart[]): (string | null)[] {
  const bad = () => new ValidationError("cursor is not one from a previous page of this list.", { field: "cursor" });
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad();
  }
  const fits =
    Array.isArray(values) &&
    values.length === keys.length &&
    values.every((v, i) =>
      v === null ? keys[i].nulls !== undefined : typeof v === "string" && VALUE_SHAPES[keys[i].type].test(v),
    );
  if (!fits) throw bad();
  return values as (string | null)[];
}

/** One page of a run's jobs in the asked order, only those in `state` when given; `now` derives lapsed and expired. */
export async function listRunJobs(
  db: Db,
  runId: string,
  query: Omit<RunJobsQuery, "limit"> & { limit: number },
  now = new Date(),
): Promise<RunJobsPage> {
  const keys = SORT_KEYS[query.sort];
  const state = shownJobState("cleanup_jobs", now);
  const keyFields = Object.fromEntries(keys.map((k, i) => [`k${i}`, sql<string | null>`(${k.expr})::text`]));
  const rows = await db
    .select({
      job: cleanupJobs,
      state: sql<ShownJobState>`${state}`,
      name: workspaces.name,
      owner: workspaces.owner,
      ...keyFields,
    })
    .from(cleanupJobs)
    .innerJoin(workspaces, eq(workspaces.id, cleanupJobs.workspaceId))
    .where(
      and(
        eq(cleanupJobs.runId, runId),
        query.state ? shownJobStateIs("cleanup_jobs", now, query.state) : undefined,
        keysetAfter(keys, query.cursor ? decodeCursor(query.cursor, keys) : null),
      ),
    )
    .orderBy(keysetOrder(keys))
    .limit(query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1) as Record<string, unknown> | undefined;
  return {
    jobs: shown.map(({ job: j, state: s, name, owner }) => ({
      id: j.id,
      workspaceId: j.workspaceId,
      workspaceName: name,
      owner,
      kind: j.kind,
      state: s,
      rootKeys: j.rootKeys,
      previewBytes: j.previewBytes,
      previewUnits: j.previewUnits,
      createdAt: j.createdAt.toISOString(),
      expiresAt: j.expiresAt.toISOString(),
      claimedAt: iso(j.claimedAt),
      leaseExpiresAt: iso(j.leaseExpiresAt),
      attempts: j.attempts,
      interruptions: j.interruptions,
      cancelRequested: j.cancelRequested,
      cancelReason: j.cancelReason,
      finishedAt: iso(j.finishedAt),
      unitsActed: j.unitsActed,
      bytesActed: j.bytesActed,
      skippedUnits: j.skippedUnits,
      errorCount: j.errorCount,
    })),
    nextCursor:
      rows.length > query.limit && last ? encodeCursor(keys.map((_, i) => last[`k${i}`] as string | null)) : null,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Entries of a result's lists sent to the page; the run's CSV export has every one. */
export const RESULT_ENTRIES_SHOWN = 200;

/** A job's stored result with the first entries of each list and each list's length. */
export type JobResultView = Omit<JobResult, "leaseToken"> & {
  receivedAt: string;
  counts: { units: number; skipped: number; errors: number };
};

const head = (list: SQL) => sql`jsonb_path_query_array(${list}, ${`$[0 to ${RESULT_ENTRIES_SHOWN - 1}]`}::jsonpath)`;

/** A job's result for its page: null while its reporter has sent none. */
export type JobDetail = { result: JobResultView | null };

/** The result a job's reporter sent (null while it has none); null when there is no such job. */
export async function getJobDetail(db: Db, jobId: string): Promise<JobDetail | null> {
  const r = cleanupJobResults;
  const [row] = await db
    .select({
      status: r.status,
      unitsActed: r.unitsActed,
      bytesActed: r.bytesActed,
      logTail: r.logTail,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      receivedAt: r.receivedAt,
      units: sql<JobResult["units"]>`${head(sql`${r.units}`)}`,
      skipped: sql<JobResult["skipped"]>`${head(sql`${r.skipped}`)}`,
      errors: sql<JobResult["errors"]>`${head(sql`${r.errors}`)}`,
      unitCount: sql<number>`jsonb_array_length(${r.units})`,
      skippedCount: sql<number>`jsonb_array_length(${r.skipped})`,
      errorCount: sql<number>`jsonb_array_length(${r.errors})`,
    })
    .from(cleanupJobs)
    .leftJoin(r, eq(r.jobId, cleanupJobs.id))
    .where(eq(cleanupJobs.id, jobId));
  if (!row) return null;
  const { status, unitCount, skippedCount, errorCount, startedAt, finishedAt, receivedAt, ...rest } = row;
  if (status === null || !startedAt || !finishedAt || !receivedAt) return { result: null };
  return {
    result: {
      ...rest,
      status,
      unitsActed: rest.unitsActed!,
      bytesActed: rest.bytesActed!,
      logTail: rest.logTail!,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      receivedAt: receivedAt.toISOString(),
      counts: { units: unitCount, skipped: skippedCount, errors: errorCount },
    },
  };
}
