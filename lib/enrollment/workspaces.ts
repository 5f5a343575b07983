import "server-only";
import { eq, sql, type AnyColumn } from "drizzle-orm";
import { generateToken, hashToken, sameSecret } from "@/lib/secrets/tokens";
import { recordFailure, refuseWhenLimited, type FailureLimit } from "@/lib/auth/failure-limit";
import { config } from "@/lib/config";
import type { Db } from "@/lib/db";
import { getOrCreateSetting } from "@/lib/db/queries/settings";
import { settings, workspaces, workspaceTokens } from "@/lib/db/schema";
import { ConflictError, UnauthorizedError } from "@/lib/errors";
import type { EnrollResponse, WorkspaceIdentity } from "@/lib/report-format/schema";

/** The fleet's enrollment key: STORAGE_ENROLLMENT_KEY, or one generated at first start and kept in the database. */
export async function getEnrollmentKey(db: Db): Promise<{ key: string; source: "environment" | "generated" }> {
  const fromEnv = config().enrollmentKey;
  if (fromEnv) return { key: fromEnv, source: "environment" };
  return { key: await getOrCreateSetting(db, "enrollment_key", () => generateToken("sek")), source: "generated" };
}

/** 401 unless `presentedKey` is the fleet's enrollment key. */
export async function checkEnrollmentKey(db: Db, presentedKey: string | null): Promise<void> {
  const { key } = await getEnrollmentKey(db);
  if (!presentedKey || !sameSecret(presentedKey, key)) {
    throw new UnauthorizedError("The enrollment key is missing or wrong (X-Enrollment-Key header).");
  }
}

/**
 * Wrong enrollment keys per address, counted together on the routes that take the key (enroll and
 * report-blockers): 20 within 10 minutes, then every key from that address is refused (429) for 10 minutes.
 */
export const ENROLLMENT_KEY_FAILURES: FailureLimit = { name: "enrollment-key-failures", max: 20, windowSeconds: 600 };

/**
 * The check of a route that takes the enrollment key, made before the body is read: 429 while `address` (the
 * caller, lib/auth/client-ip.ts) has used up its failures, else 401 unless `presentedKey` is the key; a wrong key
 * counts against the address.
 */
export async function checkEnrollmentKeyFrom(
  db: Db,
  presentedKey: string | null,
  address: string | null,
): Promise<void> {
  const subject = address ?? "unknown";
  await refuseWhenLimited(db, ENROLLMENT_KEY_FAILURES, subject);
  try {
    await checkEnrollmentKey(db, presentedKey);
  } catch (err) {
    if (presentedKey && err instanceof UnauthorizedError) await recordFailure(db, ENROLLMENT_KEY_FAILURES, subject);
    throw err;
  }
}

/**
 * Registers a workspace and issues its token, for the holder of the enrollment key (the enroll route checks it
 * before it reads the request's body, with the same function). A workspace id that already has a token can only
 * be enrolled again by presenting that token, or the claim its enrollment was made with (the reporter keeps it
 * until it has stored the token, so a lost answer heals by asking again); a reporter whose token file was lost
 * needs an admin's reset.
 */
export async function enrollWorkspace(
  db: Db,
  identity: WorkspaceIdentity,
  presentedKey: string | null,
  currentToken: string | null,
  claim: string | null = null,
): Promise<EnrollResponse> {
  await checkEnrollmentKey(db, presentedKey);
  const token = generateToken("swt");
  await db.transaction(async (tx) => {
    await tx
      .insert(workspaces)
      .values({
        id: identity.id,
        name: identity.name,
        owner: identity.owner,
        template: identity.template ?? null,
        agentName: identity.agent ?? null,
      })
      .onConflictDoUpdate({
        target: workspaces.id,
        set: { ...reporterNames(identity), agentName: identity.agent ?? null },
      });
    const [existing] = await tx
      .select({ tokenHash: workspaceTokens.tokenHash, claimHash: workspaceTokens.claimHash })
      .from(workspaceTokens)
      .where(eq(workspaceTokens.workspaceId, identity.id))
      .for("update");
    const holdsToken = currentToken !== null && hashToken(currentToken) === existing?.tokenHash;
    const holdsClaim = claim !== null && existing?.claimHash != null && hashToken(claim) === existing.claimHash;
    if (existing && !holdsToken && !holdsClaim) {
      throw new ConflictError(
        `Workspace ${identity.id} is already enrolled. Present its current token, or ask an admin to reset it.`,
      );
    }
    const row = { tokenHash: hashToken(token), claimHash: claim === null ? null : hashToken(claim) };
    await tx
      .insert(workspaceTokens)
      .values({ workspaceId: identity.id, ...row })
      .onConflictDoUpdate({ target: workspaceTokens.workspaceId, set: { ...row, issuedAt: sql`now()` } });
  });
  return { workspaceId: identity.id, token };
}

/**
 * The names an enrollment writes over an existing row: the reporter's until Coder's sync has described the
 * workspace, Coder's after (member scope reads the owner, which no reporter may rewrite).
 */
function reporterNames(identity: WorkspaceIdentity) {
  const unlessCoder = (column: AnyColumn, value: string | null) =>
    sql`case when ${workspaces.coderSyncedAt} is null then ${value} else ${column} end`;
  return {
    name: unlessCoder(workspaces.name, identity.name),
    owner: unlessCoder(workspaces.owner, identity.owner),
    template: unlessCoder(workspaces.template, identity.template ?? null),
  };
}

/** Which workspace a bearer token belongs to; 401 when none. */
export async function authenticateWorkspace(db: Db, token: string | null): Promise<string> {
  if (!token) throw new UnauthorizedError("Send the workspace token as Authorization: Bearer <token>.");
  const rows = await db
    .select({ workspaceId: workspaceTokens.workspaceId })
    .from(workspaceTokens)
    .where(eq(workspaceTokens.tokenHash, hashToken(token)));
  if (!rows[0]) throw new UnauthorizedError("The workspace token is not valid (was the workspace reset?).");
  return rows[0].workspaceId;
}

/** Forgets a workspace's token, so it can enroll again with only the enrollment key; false when it had none. */
export async function deleteWorkspaceToken(tx: Db, workspaceId: string): Promise<boolean> {
  const deleted = await tx
    .delete(workspaceTokens)
    .where(eq(workspaceTokens.workspaceId, workspaceId))
    .returning({ id: workspaceTokens.workspaceId });
  return deleted.length > 0;
}

/** Stores `key` as the fleet's generated enrollment key. */
export async function storeEnrollmentKey(tx: Db, key: string): Promise<void> {
  await tx
    .insert(settings)
    .values({ key: "enrollment_key", value: key })
    .onConflictDoUpdate({ target: settings.key, set: { value: key, updatedAt: sql`now()` } });
}
