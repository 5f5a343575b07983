import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db";
import {
  getRelease,
  getReleaseChecksum,
  getRollout,
  listReleases,
  saveRollout,
  storeRelease,
  versionCounts,
  workspaceOfToken,
  type ReleaseChecksum,
  type ReporterRelease,
} from "@/lib/db/queries/reporter-rollout";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { REPORTER_VERSION } from "@/lib/reporter/version";
import type { ReporterRollout } from "@/lib/validations/reporter-rollout";
import { withTransaction, type ChangeContext } from "./transaction";

// The staged rollout of the reporter (docs/reporter.md#staged-rollout): which bundle each workspace downloads, the
// bundles held for that, and the admin's choice with what each version does in the fleet.

/** The bundle this release ships (scripts/build-reporter.mjs), as the container image and `npm run build` place it. */
const BUNDLE = path.join(/*turbopackIgnore: true*/ process.cwd(), "public", "reporter.mjs");

/** A version of the reporter as the rollout panel shows it: held (servable) or only reported by workspaces. */
export type ReporterVersionView = {
  version: string;
  /** The dashboard holds the bundle, so it can pin or stage it. */
  held: boolean;
  size: number | null;
  firstSeen: Date | null;
  reporting: number;
  withErrors: number;
  fellBack: number;
};

export type ReporterRolloutView = { latest: string; rollout: ReporterRollout; versions: ReporterVersionView[] };

const recorded = new WeakSet<Db>();

/** The versions a rollout names, which the dashboard must keep. */
const namedVersions = (r: ReporterRollout) => [r.pinned, r.candidate?.version].filter((v): v is string => !!v);

/**
 * Stores the bundle this release ships under its version, once per process and database (at start, and again
 * by the first download when the database was not open then); nothing when the bundle was not built.
 */
export async function recordBundledRelease(db: Db, file = BUNDLE): Promise<void> {
  if (recorded.has(db)) return;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return;
  }
  const sha256 = crypto.createHash("sha256").update(bytes).digest("hex");
  await storeRelease(db, { version: REPORTER_VERSION, sha256, bytes }, namedVersions(await getRollout(db)));
  recorded.add(db);
}

/** Whether a workspace is in a candidate's percentage: by its id's hash, so the same workspaces stay in. */
export function inShare(workspaceId: string, percent: number): boolean {
  return crypto.createHash("sha256").update(workspaceId).digest().readUInt32BE(0) % 100 < percent;
}

/** The version a workspace gets (null: a download without a workspace token, which gets the default). */
export function versionFor(
  rollout: ReporterRollout,
  workspace: { id: string; template: string | null } | null,
): string {
  const base = rollout.pinned ?? REPORTER_VERSION;
  const c = rollout.candidate;
  if (!c || !workspace) return base;
  const byTemplate = workspace.template !== null && c.templates.includes(workspace.template);
  return byTemplate || inShare(workspace.id, c.percent) ? c.version : base;
}

/**
 * What `read` gives of the version the holder of `token` downloads (the default without one, or with a token no
 * workspace holds); of the bundled release when the chosen version is no longer held. 404 when there is no bundle.
 */
async function releaseFor<T>(
  db: Db,
  token: string | null,
  read: (db: Db, version: string) => Promise<T | null>,
): Promise<T> {
  await recordBundledRelease(db);
  const workspace = token ? await workspaceOfToken(db, token) : null;
  const release = (await read(db, versionFor(await getRollout(db), workspace))) ?? (await read(db, REPORTER_VERSION));
  if (!release) throw new NotFoundError("This dashboard has no reporter bundle: build it with npm run build:reporter.");
  return release;
}

/** The bundle the holder of `token` downloads. */
export const reporterFor = (db: Db, token: string | null): Promise<ReporterRelease> =>
  releaseFor(db, token, getRelease);

/** Its checksum alone: the script reads it beside every download, with no need of the bundle's bytes. */
export const reporterChecksumFor = (db: Db, token: string | null): Promise<ReleaseChecksum> =>
  releaseFor(db, token, getReleaseChecksum);

/** The choice in force and every version held or reported, with how the fleet's workspaces fare on it. */
export async function rolloutView(db: Db): Promise<ReporterRolloutView> {
  await recordBundledRelease(db);
  // one after the other: `db` may be a transaction, which runs one query at a time
  const rollout = await getRollout(db);
  const held = await listReleases(db);
  const counts = await versionCounts(db);
  const none = { reporting: 0, withErrors: 0, fellBack: 0 };
  const versions: ReporterVersionView[] = held.map((h) => ({
    version: h.version,
    held: true,
    size: h.size,
    firstSeen: h.firstSeen,
    ...none,
    ...counts.find((c) => c.version === h.version),
  }));
  for (const c of counts)
    if (!held.some((h) => h.version === c.version)) versions.push({ ...c, held: false, size: null, firstSeen: null });
  return { latest: REPORTER_VERSION, rollout, versions };
}

/** Saves an admin's choice (audited); 422 when it names a version the dashboard does not hold. */
export function updateRollout(ctx: ChangeContext, rollout: ReporterRollout): Promise<ReporterRolloutView> {
  return withTransaction(ctx, async ({ tx, audit }) => {
    await recordBundledRelease(tx);
    const held = (await listReleases(tx)).map((r) => r.version);
    const missing = namedVersions(rollout).filter((v) => !held.includes(v));
    if (missing.length)
      throw new ValidationError(
        `This dashboard holds no reporter ${missing.join(", ")}; it holds ${held.join(", ") || "none"}.`,
      );
    await saveRollout(tx, rollout);
    await audit({ action: "settings.reporter_rollout_changed", details: rollout });
    return rolloutView(tx);
  });
}
