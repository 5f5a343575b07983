import "server-only";
import type { z } from "zod";
import { RESULT_JOB_STATES } from "@/lib/cleanup/job-states";
import { jobResult, type JobResult } from "@/lib/cleanup/protocol";
import { ownJob, storedResult } from "@/lib/db/queries/cleanup-jobs";
import type { Db } from "@/lib/db/types";
import { ConflictError } from "@/lib/errors";
import { readJsonLifting } from "@/lib/http/request";
import { hashToken } from "@/lib/secrets/tokens";
import { validate } from "@/lib/validations/validate";
import { STALE, storeJobResult } from "./cleanup-jobs";

/** The header a reporter sends its lease in, so that the lease is checked before the body is read. */
export const LEASE_HEADER = "x-lease-token";

/**
 * What the longest result needs, measured on results of 100,000 units and 100,000 skipped (the reporter's caps,
 * and the schema's): a unit takes 330 bytes of JSON with a 95-character path and its trash path, a skipped unit
 * 110 bytes with a 64-character path, 44 MB in all. Longer paths fit fewer; the rest of a result is under 300 KB.
 */
export const RESULT_BODY_BYTES = 48 * 1024 * 1024;
/** One unit: two paths of 4,096 characters, each escaped as `\uXXXX` at worst, and its few short fields. */
const UNIT_CHARS = 2 * 6 * 4096 + 1024;

/**
 * Before a result's body is read: the job exists (404), is this workspace's (403) and takes a result under this
 * lease, or took one under it before (409 otherwise). Reporters before the lease header send the lease in the
 * body only: for them the job's state is checked here and the lease once the body is read.
 */
export async function checkResultLease(db: Db, workspaceId: string, jobId: string, leaseToken: string | null) {
  const { job } = await ownJob(db, workspaceId, jobId);
  const stored = (await storedResult(db, jobId))?.hash ?? null;
  const current = stored ?? ((RESULT_JOB_STATES as readonly string[]).includes(job.state) ? job.leaseTokenHash : null);
  if (current === null || (leaseToken !== null && current !== hashToken(leaseToken))) throw new ConflictError(STALE);
}

const { units: unitList, skipped: skippedList } = jobResult.shape;

/**
 * Reads a job result's body: its unit lists parsed and validated unit by unit (a whole one at once held the
 * event loop for seconds) and serialized for storage the same way.
 */
async function readJobResult(request: Request) {
  const each =
    <S extends z.ZodType>(schema: S, key: string) =>
    (value: unknown, index: number) => {
      const unit: z.infer<S> = validate(schema, value, "body", `${key}.${index}`);
      return { unit, json: JSON.stringify(unit) };
    };
  const { rest, lifted } = await readJsonLifting(
    request,
    RESULT_BODY_BYTES,
    {
      units: each(unitList.element, "units"),
      skipped: each(skippedList.element, "skipped"),
    },
    UNIT_CHARS,
  );
  const result: JobResult = {
    ...validate(jobResult, rest),
    units: lifted.units.map((u) => u.unit),
    skipped: lifted.skipped.map((u) => u.unit),
  };
  const json = (items: { json: string }[]) => items.map((u) => u.json);
  return { result, json: { units: json(lifted.units), skipped: json(lifted.skipped) } };
}

/** POST /api/v1/jobs/{id}/result: every check the body does not carry first, then the body, then the store. */
export async function receiveJobResult(db: Db, workspaceId: string, jobId: string, request: Request) {
  const leaseHeader = request.headers.get(LEASE_HEADER);
  await checkResultLease(db, workspaceId, jobId, leaseHeader);
  const { result, json } = await readJobResult(request);
  if (leaseHeader !== null && result.leaseToken !== leaseHeader) throw new ConflictError(STALE);
  return storeJobResult(db, workspaceId, jobId, result, json);
}
