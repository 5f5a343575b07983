// A path in a report as the wire carries it: relative to a base folder, and how its bytes are written.

import { z } from "zod";
import { LIMITS } from "./constants";
import { ESCAPED } from "./path-encoding";

/** What makes a path unfit to be relative to a base folder; every problem it has, in this order. */
function relativePathProblems(p: string): string[] {
  const problems: string[] = [];
  if (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p)) problems.push("must be relative, not absolute");
  // Splitting every path was a large part of a report's validation; only one holding ".." needs it.
  if (p.includes("..") && p.split(/[\\/]/).includes("..")) problems.push("must not contain '..'");
  if (p.includes("\0")) problems.push("must not contain NUL");
  return problems;
}

/** A path relative to a base folder: never absolute, never climbing out with "..". */
export const relativePath = z
  .string()
  .min(1)
  .max(LIMITS.pathLength)
  .superRefine((p, ctx) => {
    for (const message of relativePathProblems(p)) ctx.addIssue({ code: "custom", message });
  });

/**
 * Beside a path: "escaped" when the name's bytes are not all UTF-8. Each byte that is not part of valid UTF-8 is
 * then written `\xHH` and each backslash of the name `\\` (lib/report-format/path-encoding.ts). Absent: plain UTF-8.
 */
export const pathEncoding = z.literal(ESCAPED).optional();
