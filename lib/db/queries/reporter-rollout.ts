import "server-only";
import { desc, eq, notInArray, sql } from "drizzle-orm";
import { hashToken } from "@/lib/secrets/tokens";
import { LATEST_FOR_ALL, reporterRollout, type ReporterRollout } from "@/lib/validations/reporter-rollout";
import { reporterReleases, settings, workspaces, workspaceTokens } from "../schema";
import { rowsOf, type Db } from "../types";

const ROLLOUT_KEY = "reporter.rollout";
/** Bundles kept besides those the setting names: enough to step back a few releases, small enough to forget. */
const KEPT_RELEASES = 5;

export type ReleaseChecksum = { version: string; sha256: string };
export type ReporterRelease = ReleaseChecksum & { bytes: Buffer };
export type HeldRelease = { version: string; sha256: string; size: number; firstSeen: Date };
export type VersionCounts = { version: string; reporting: number; withErrors: number; fellBack: number };

/** The rollout an admin chose; "latest" for everyone when none was saved (or it no longer parses). */
export async function getRollout(db: Db): Promise<ReporterRollout> {
  const rows = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, ROLLOUT_KEY));
  if (!rows[0]) return LATEST_FOR_ALL;
  const parsed = reporterRollout.safeParse(JSON.parse(rows[0].value));
  return parsed.success ? parsed.data : LATEST_FOR_ALL;
}

export async function saveRollout(tx: Db, rollout: ReporterRollout): Promise<void> {
  await tx
    .insert(settings)
    .values({ key: ROLLOUT_KEY, value: JSON.stringify(rollout) })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: sql`now()` } });
}

/**
 * Stores a bundle under its version (a rebuilt bundle of the same version replaces the bytes) and drops the oldest
 * beyond KEPT_RELEASES, never one of `keep` (the versions the rollout names).
 */
export async function storeRelease(db: Db, release: ReporterRelease, keep: string[]): Promise<void> {
  const { version, sha256, bytes } = release;
  await db
    .insert(reporterReleases)
    .values({ version, sha256, bytes, size: bytes.length })
    .onConflictDoUpdate({
      target: reporterReleases.version,
      set: { sha256, bytes, size: bytes.length },
      setWhere: sql`${reporterReleases.sha256} <> ${sha256}`,
    });
  const newest = await db
    .select({ version: reporterReleases.version })
    .from(reporterReleases)
    .orderBy(desc(reporterReleases.firstSeen))
    .limit(KEPT_RELEASES);
  await db
    .delete(reporterReleases)
    .where(notInArray(reporterReleases.version, [version, ...keep, ...newest.map((r) => r.version)]));
}

export async function getRelease(db: Db, version: string): Promise<ReporterRelease | null> {
  const rows = await db
    .select({ version: reporterReleases.version, sha256: reporterReleases.sha256, bytes: reporterReleases.bytes })
    .from(reporterReleases)
    .where(eq(reporterReleases.version, version));
  return rows[0] ?? null;
}

/** A held version's checksum, without the bundle's bytes (what `/reporter.mjs.sha256` answers). */
export async function getReleaseChecksum(db: Db, version: string): Promise<ReleaseChecksum | null> {
  const rows = await db
    .select({ version: reporterReleases.version, sha256: reporterReleases.sha256 })
    .from(reporterReleases)
    .where(eq(reporterReleases.version, version));
  return rows[0] ?? null;
}

/** The bundles held, newest first, without their bytes. */
export function listReleases(db: Db): Promise<HeldRelease[]> {
  return db
    .select({
      version: reporterReleases.version,
      sha256: reporterReleases.sha256,
      size: reporterReleases.size,
      firstSeen: reporterReleases.firstSeen,
    })
    .from(reporterReleases)
    .orderBy(desc(reporterReleases.firstSeen));
}

/** The workspace a token belongs to, with its template; null for a token no workspace holds. */
export async function workspaceOfToken(db: Db, token: string): Promise<{ id: string; template: string | null } | null> {
  const rows = await db
    .select({ id: workspaces.id, template: workspaces.template })
    .from(workspaceTokens)
    .innerJoin(workspaces, eq(workspaces.id, workspaceTokens.workspaceId))
    .where(eq(workspaceTokens.tokenHash, hashToken(token)));
  return rows[0] ?? null;
}

/**
 * Per reporter version, over the workspaces in the fleet and their newest report: how many report with it, how
 * many of those reports carry errors, and how many fell back from it to the previous version (their newest report
 * is of that previous version and names this one in fellBackFrom).
 */
export async function versionCounts(db: Db): Promise<VersionCounts[]> {
  const rows = rowsOf<{
    version: string;
    reporting: number | string;
    with_errors: number | string;
    fell_back: number | string;
  }>(
    await db.execute(sql`
      select v.version, sum(v.reporting) as reporting, sum(v.with_errors) as with_errors, sum(v.fell_back) as fell_back
      from workspaces w
      join reports r on r.workspace_id = w.id and r.collected_at = w.last_collected_at and r.id = w.last_report_id
      cross join lateral (values
        (r.reporter_version, 1, case when jsonb_array_length(r.errors) > 0 then 1 else 0 end, 0),
        (r.fell_back_from, 0, 0, 1)) as v(version, reporting, with_errors, fell_back)
      where w.deleted_at is null and v.version is not null
      group by v.version
      order by v.version`),
  );
  return rows.map((r) => ({
    version: r.version,
    reporting: Number(r.reporting),
    withErrors: Number(r.with_errors),
    fellBack: Number(r.fell_back),
  }));
}
