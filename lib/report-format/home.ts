// The whole home in a report: its total as `du -sxB1 ~` prints it, split into the agents' roots, the modules'
// roots, the other roots and the rest, the rest's largest folders by kind, and what a one-device walk cannot
// count (mounts inside the home and what they hide, files deleted but still open, unreadable folders). Reporters that do not
// measure the home send none: the field is optional.

import { z } from "zod";
import { HOME_KINDS } from "./home-kinds";
import { LIMITS } from "./constants";
import { pathEncoding, relativePath } from "./wire-path";

const bytes = z.number().int().nonnegative().max(LIMITS.maxBytes);
const count = z.number().int().nonnegative().max(LIMITS.maxCount);

export const homeFolder = z
  .object({
    /** Relative to home; at most three segments. */
    path: relativePath,
    pathEncoding,
    /** du -sB1 of the folder (inclusive: its listed children are inside this figure too). */
    bytes,
    kind: z.enum(HOME_KINDS).optional(),
  })
  .strict();

export const homeUsage = z
  .object({
    /** du -sxB1 ~: one device, each hard link once. */
    bytes,
    apparentBytes: bytes,
    files: count,
    dirs: count,
    /** The roots on the home's device: tool folders, module folders (current, legacy, script data), the rest. */
    roots: z.object({ agents: bytes, modules: bytes, other: bytes }).strict(),
    /** bytes less the roots: what no agent or module accounts for. */
    rest: bytes,
    /** The rest by kind: package caches and the other known places, project dependencies wherever they lie. */
    kinds: z.partialRecord(z.enum(HOME_KINDS), bytes),
    largest: z.array(homeFolder).max(LIMITS.largestEntries),
    /** Folders that hold a copy of their own name (`.vscode-server/…/.vscode-server`): the copy and its size. */
    nestedCopies: z
      .array(homeFolder.omit({ kind: true }))
      .max(LIMITS.largestEntries)
      .optional(),
    /** Mounts inside the home, which the one-device walk leaves out: their own volumes' Size and Used. */
    mounts: z
      .array(
        z.object({ path: relativePath, fsType: z.string().max(100), totalBytes: bytes, usedBytes: bytes }).strict(),
      )
      .max(LIMITS.largestEntries)
      .optional(),
    /**
     * du -sxB1 of what lies on the home's volume under the mount points inside the home (files written into a
     * folder before a volume was mounted on it). Reporters running as root measure it; absent: not measured.
     */
    hiddenUnderMounts: bytes.optional(),
    /** Files on the home's volume deleted but still open: used blocks that no walk finds. */
    deletedOpen: z.object({ files: count, bytes }).strict().optional(),
    /** Folders of the rest the reporter may not read (their contents are in no figure; named in `errors`). */
    unreadable: count.optional(),
  })
  .strict()
  .refine((h) => h.roots.agents + h.roots.modules + h.roots.other + h.rest === h.bytes, {
    message: "the roots and the rest must add up to the home's total",
    path: ["rest"],
  });

export type HomeUsage = z.infer<typeof homeUsage>;
export type HomeFolder = z.infer<typeof homeFolder>;

/** The report's field (schema.ts spreads it into the report). */
export const HOME_USAGE_FIELD = { home: homeUsage.optional() };
