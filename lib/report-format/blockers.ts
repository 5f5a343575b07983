// Why a workspace cannot report: what the module's script sends, in one small request, when it cannot run the
// reporter. Shared by the route that takes it and the pages that show it.
import { z } from "zod";
import { workspaceIdentity } from "./schema";

/** Each reason the module's script names, and how the coverage list says it. */
export const BLOCKER_REASONS = {
  "no-runtime": "No Node.js 18 or newer, and none could be fetched",
  "unsupported-arch": "Unsupported CPU architecture for the Node.js runtime",
  "unsupported-libc": "C library the Node.js runtime cannot run on (musl, or glibc before 2.28)",
  "missing-tools": "A tool the module needs is missing",
  "runtime-download": "The Node.js runtime could not be downloaded",
  "runtime-checksum": "The downloaded Node.js runtime failed its checksum",
  "runtime-broken": "The downloaded Node.js runtime does not run",
  "reporter-checksum": "The downloaded reporter failed its checksum",
} as const;
export type BlockerReason = keyof typeof BLOCKER_REASONS;

export const reportBlockerRequest = z
  .object({
    workspace: workspaceIdentity,
    reason: z.enum(Object.keys(BLOCKER_REASONS) as [BlockerReason, ...BlockerReason[]]),
    /** The script's own line, as Coder's script log shows it. */
    detail: z.string().trim().min(1).max(500),
    moduleVersion: z.string().max(50).optional(),
  })
  .strict();
export type ReportBlockerRequest = z.infer<typeof reportBlockerRequest>;

export const reportBlockerResponse = z.object({ recorded: z.literal(true) }).strict();

/**
 * The reasons given with the enrollment key alone (no workspace token): at most `max` are kept, each for `days`
 * (the module's script says it again at every start of a workspace that still cannot report).
 */
export const KEY_BLOCKERS = { max: 1000, days: 7 };

/** Small: a reason and a line. */
export const BLOCKER_BODY_BYTES = 4 * 1024;
