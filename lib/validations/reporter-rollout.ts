import { z } from "zod";

const version = z.string().trim().min(1).max(50);

/**
 * Which reporter the dashboard serves (docs/reporter.md#staged-rollout): `pinned` null serves "latest", the version
 * this release bundles; a pinned version is one the dashboard holds. A candidate, when set, goes to a share of the
 * workspaces first: those of the templates named, and a stable percentage of the others (by their id's hash).
 */
export const reporterRollout = z
  .object({
    pinned: version.nullable(),
    candidate: z
      .object({
        version,
        templates: z.array(z.string().trim().min(1).max(200)).max(100),
        percent: z.number().int("must be a whole percentage").min(0).max(100),
      })
      .strict()
      .nullable(),
  })
  .strict();

export type ReporterRollout = z.infer<typeof reporterRollout>;

/** The setting before an admin chose: every workspace gets the version this release bundles. */
export const LATEST_FOR_ALL: ReporterRollout = { pinned: null, candidate: null };
