// A path in a report as the wire carries it: relative to a base folder, and how its bytes are written.

import { z } from "zod";
import { LIMITS } from "./constants";
import { ESCAPED } from "./path-encoding";

/** A path relative to a base folder: never absolute, never climbing out with "..". */
export const relativePath = z
  .string()
  .min(1)
  .max(LIMITS.pathLength)
  .refine((p) => !p.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(p), "must be relative, not absolute")
  .refine((p) => !p.split(/[\\/]/).includes(".."), "must not contain '..'")
  .refine((p) => !p.includes("\0"), "must not contain NUL");

/**
 * Beside a path: "escaped" when the name's bytes are not all UTF-8. Each byte that is not part of valid UTF-8 is
 * then written `\xHH` and each backslash of the name `\\` (lib/report-format/path-encoding.ts). Absent: plain UTF-8.
 */
export const pathEncoding = z.literal(ESCAPED).optional();
