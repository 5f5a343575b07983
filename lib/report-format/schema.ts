import { millisecondsInDay } from "date-fns/constants";
import { z } from "zod";
import { RECIPE_AGE_STEPS_DAYS, RECIPE_IDS } from "./recipe-ids";
import type { InboxNotice } from "./coder-inbox";
import { AGE_BUCKETS, CATEGORIES, LIMITS, REPORT_FORMAT_VERSION, RETENTION_STATES, ROOT_KINDS } from "./constants";
import { HOME_USAGE_FIELD } from "./home";
import { persistence } from "./persistence";
import { pathEncoding, relativePath } from "./wire-path";

export { pathEncoding, relativePath };

const count = z.number().int().nonnegative().max(LIMITS.maxCount);
const bytes = z.number().int().nonnegative().max(LIMITS.maxBytes);
// XFS and others report very large inode totals: allow any exact integer.
const inodeCount = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const timestamp = z.iso.datetime({ offset: true });

const slug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, "lowercase letters, digits, '.', '_' and '-'");

const sizeAndCount = z.object({ bytes, files: count }).strict();

export const categoryBreakdown = z.partialRecord(z.enum(CATEGORIES), sizeAndCount);
export const ageBreakdown = z.partialRecord(z.enum(AGE_BUCKETS), sizeAndCount);

/**
 * A file AgentAPI left in a module folder after the modules stopped using it (agentapi-state.json,
 * agentapi.pid). Counted in its root's figures like any file (a root's figure is du's for its folder) and
 * listed here so it can be shown, flagged and cleaned as a unit.
 */
export const leftoverEntry = z
  .object({
    /** Relative to the root. */
    path: relativePath,
    pathEncoding,
    bytes,
    apparentBytes: bytes,
    mtime: timestamp,
  })
  .strict();

/** Per root and cleanup recipe: units and bytes by age step, so a preview needs no workspace. */
export const recipeUsage = z
  .object({
    units: count,
    bytes,
    /** Units the workspace's owner protected (skipped by every run). */
    protectedUnits: count,
    protectedBytes: bytes,
    /**
     * [units, bytes] of the units whose newest file is at most RECIPE_AGE_STEPS_DAYS[i] days old and older than
     * the step before; the last entry (one more than the steps) holds the older ones. Sums equal units and bytes.
     */
    byAge: z.array(z.tuple([count, bytes])).max(RECIPE_AGE_STEPS_DAYS.length + 1),
  })
  .strict();

export const largestEntry = z
  .object({
    /** Relative to the root. */
    path: relativePath,
    pathEncoding,
    bytes,
    mtime: timestamp,
    type: z.enum(["file", "dir", "session"]),
  })
  .strict();

export const storageRoot = z
  .object({
    key: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@-]*$/, "letters, digits and . _ : / @ -"),
    kind: z.enum(ROOT_KINDS),
    /** Agent slug this root belongs to (claude-code, codex, ...) or "other". */
    agent: slug,
    /**
     * Relative to the home folder. Plain text: a root's path comes from the catalog, the configuration or a
     * folder name read as text (its key is made from it), never from bytes that are not UTF-8.
     */
    path: relativePath,
    bytes,
    apparentBytes: bytes,
    files: count,
    dirs: count,
    oldestMtime: timestamp.nullable().optional(),
    newestMtime: timestamp.nullable().optional(),
    categories: categoryBreakdown.optional(),
    ages: ageBreakdown.optional(),
    largest: z.array(largestEntry).max(LIMITS.largestEntries).optional(),
    /** AgentAPI leftovers inside this root (already counted in its bytes and files). */
    leftovers: z.array(leftoverEntry).max(LIMITS.largestEntries).optional(),
    /** What each cleanup recipe that applies to this root would find in it (reporter 0.3 and later). */
    recipes: z.partialRecord(z.enum(RECIPE_IDS), recipeUsage).optional(),
    /** script-data only: true when the folder is not the current CODER_SCRIPT_DATA_DIR. */
    orphaned: z.boolean().optional(),
    /** Entries in this root that could not be read. */
    unreadable: count.optional(),
  })
  .strict();

const name = z.string().min(1).max(200);
/** An address as RFC 5321 bounds it (254 characters). */
const ownerEmail = z.email().max(254);

export const workspaceIdentity = z
  .object({
    id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._-]+$/, "letters, digits and . _ -"),
    name,
    owner: name,
    template: name.optional(),
    agent: name.optional(),
    /**
     * The owner's address in Coder (CODER_WORKSPACE_OWNER_EMAIL, which the module sets), for the owners' notices
     * when Coder's users API has none. Reporters before 0.6 never send it; an address that is not one, or is longer
     * than 254 characters, is dropped (undefined) without refusing the report.
     */
    ownerEmail: z.preprocess((v) => (ownerEmail.safeParse(v).success ? v : undefined), ownerEmail.optional()),
  })
  .strict();

/**
 * The home volume as `df -B1` and `df -i` show it. totalBytes is df's Size (f_blocks × f_frsize), freeBytes
 * its Avail (f_bavail × f_frsize, what an unprivileged user may still write), usedBytes its Used
 * ((f_blocks − f_bfree) × f_frsize). Size − Used − Avail is the space reserved for root, which is why df's
 * Use% is Used ÷ (Used + Avail), not 1 − Avail ÷ Size. Reporters before 0.2 sent totalBytes and freeBytes
 * only; such reports are still accepted.
 */
export const volume = z
  .object({
    totalBytes: bytes,
    freeBytes: bytes,
    usedBytes: bytes.optional(),
    /** df -i: Inodes (f_files), IUsed (f_files − f_ffree), IFree (f_ffree). Absent where the file system has no fixed inode count. */
    inodes: z.object({ total: inodeCount, used: inodeCount, free: inodeCount }).strict().optional(),
  })
  .strict();

/**
 * Where an agent's retention setting was looked for and what was found: never the file's contents beyond the
 * retention keys. `source` is the file it came from (relative to home, or absolute for files outside it such
 * as Claude Code's managed settings); `reason` says why an unreadable one could not be read.
 */
const settingFound = {
  state: z.enum(RETENTION_STATES),
  source: z.string().min(1).max(LIMITS.pathLength).optional(),
  reason: z.string().min(1).max(300).optional(),
};
/** Gemini CLI's durations: a whole number and h, d, w or m (months), e.g. "30d". */
export const agentDuration = z
  .string()
  .max(20)
  .regex(/^[0-9]+[hdwm]$/, "a number and h, d, w or m");

/** The agents' own retention settings, by agent slug (as in the catalog). */
export const agentRetention = z
  .object({
    /** `cleanupPeriodDays` (managed settings win over ~/.claude/settings.json). */
    "claude-code": z
      .object({ ...settingFound, cleanupPeriodDays: z.number().int().nonnegative().max(1e9).optional() })
      .strict()
      .optional(),
    /** `general.sessionRetention` of ~/.gemini/settings.json. */
    gemini: z
      .object({
        ...settingFound,
        enabled: z.boolean().optional(),
        maxAge: agentDuration.optional(),
        maxCount: count.optional(),
        minRetention: agentDuration.optional(),
      })
      .strict()
      .optional(),
    /** `[history] max_bytes` of config.toml: caps history.jsonl only. */
    codex: z
      .object({ ...settingFound, historyMaxBytes: bytes.optional() })
      .strict()
      .optional(),
    /** `snapshot` of opencode.json(c): false turns snapshots off. */
    opencode: z
      .object({ ...settingFound, snapshot: z.boolean().optional() })
      .strict()
      .optional(),
  })
  .strict();

export const scanError = z
  .object({
    path: z.string().max(LIMITS.pathLength),
    pathEncoding,
    code: z.string().max(50),
    message: z.string().max(500),
  })
  .strict();

export const report = z
  .object({
    version: z.literal(REPORT_FORMAT_VERSION),
    id: z.uuid(),
    collectedAt: timestamp,
    workspace: workspaceIdentity,
    volume: volume.nullable().optional(),
    reporter: z
      .object({
        version: z.string().min(1).max(50),
        scanMs: z.number().nonnegative().max(millisecondsInDay),
        /**
         * The version the module's script ran first this run, which failed as a broken reporter does, so it ran the
         * previous one (this report's); absent when it did not, and from older modules.
         */
        fellBackFrom: z.string().min(1).max(50).optional(),
      })
      .strict(),
    roots: z.array(storageRoot).max(LIMITS.roots),
    errors: z.array(scanError).max(LIMITS.errors).optional(),
    /** The agents' own retention settings; absent from reports of reporters that do not read them. */
    agentRetention: agentRetention.optional(),
    ...HOME_USAGE_FIELD,
    /** Where the home and each root live and whether that survives a restart; absent from older reporters. */
    persistence: persistence.optional(),
    /**
     * The reporter's own writes (its lock, token, spool) failed this run for lack of space (ENOSPC, or EDQUOT at
     * a quota): the home is full whatever df says. Absent when they did not, and from older reporters.
     */
    writesFailedNoSpace: z.literal(true).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.roots.forEach((root, i) => {
      if (seen.has(root.key)) {
        ctx.addIssue({ code: "custom", path: ["roots", i, "key"], message: `duplicate root key "${root.key}"` });
      }
      seen.add(root.key);
      if (root.bytes > LIMITS.maxBytes || root.files + root.dirs > LIMITS.maxCount) {
        ctx.addIssue({ code: "custom", path: ["roots", i], message: "counts are not plausible" });
      }
    });
    if (r.volume && r.volume.freeBytes > r.volume.totalBytes) {
      ctx.addIssue({ code: "custom", path: ["volume", "freeBytes"], message: "free space exceeds the volume's size" });
    }
    if (r.volume?.usedBytes !== undefined && r.volume.usedBytes + r.volume.freeBytes > r.volume.totalBytes) {
      ctx.addIssue({
        code: "custom",
        path: ["volume", "usedBytes"],
        message: "used plus available space exceeds the volume's size",
      });
    }
    const inodes = r.volume?.inodes;
    if (inodes && inodes.used + inodes.free > inodes.total) {
      ctx.addIssue({ code: "custom", path: ["volume", "inodes"], message: "used plus free inodes exceed the total" });
    }
    if (Date.parse(r.collectedAt) > Date.now() + LIMITS.futureSkewMs) {
      ctx.addIssue({ code: "custom", path: ["collectedAt"], message: "is in the future (check the workspace clock)" });
    }
  });

export type Report = z.infer<typeof report>;
export type StorageRoot = z.infer<typeof storageRoot>;
export type WorkspaceIdentity = z.infer<typeof workspaceIdentity>;
export type LargestEntry = z.infer<typeof largestEntry>;
export type LeftoverEntry = z.infer<typeof leftoverEntry>;
export type Volume = z.infer<typeof volume>;
export type SizeAndCount = z.infer<typeof sizeAndCount>;
export type CategoryBreakdown = z.infer<typeof categoryBreakdown>;
export type AgeBreakdown = z.infer<typeof ageBreakdown>;
export type ScanError = z.infer<typeof scanError>;
export type RecipeUsage = z.infer<typeof recipeUsage>;
export type AgentRetention = z.infer<typeof agentRetention>;
export type AgentRetentionAgent = keyof AgentRetention;

/**
 * A reporter's spooled backlog in one request. Each report is validated and stored on its own (one bad report
 * does not fail the others), so the items are checked here only for being there.
 */
export const reportBatch = z.object({ reports: z.array(z.unknown()).min(1).max(LIMITS.reportBatchSize) }).strict();

/**
 * One report's outcome in a batch, in the order sent. "stored" and "duplicate" (stored before: nothing changed)
 * are delivered; "rejected" will never be accepted (the error says why); "retry" could not be stored now (the
 * database is unreachable): send it again later.
 */
export type ReportBatchResult =
  | { id: string; status: "stored" | "duplicate"; newest: boolean }
  | { id: string | null; status: "rejected" | "retry"; error: { code: string; message: string; details?: unknown } };
export type ReportBatchResponse = {
  results: ReportBatchResult[];
  /** The owner's Coder Inbox notices for the reporter to deliver; absent from older dashboards. */
  inbox?: InboxNotice[];
};

/**
 * The enrollment's claim: a secret the reporter makes and keeps (0600) until it has stored the token. Sent
 * again, it re-enrolls a workspace whose first answer was lost; nobody else holds it.
 */
export const enrollmentClaim = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,128}$/, "a claim is 32 to 128 URL-safe base64 characters");

export const enrollRequest = z.object({ workspace: workspaceIdentity, claim: enrollmentClaim.optional() }).strict();
export type EnrollRequest = z.infer<typeof enrollRequest>;
export type EnrollResponse = { workspaceId: string; token: string };
