import "server-only";
import { getAuth } from "@/lib/auth/server";
import { countUsers, getUser, markSetupDone, requireSetupOpen, userIdByEmail, type UserInfo } from "@/lib/auth/users";
import { config } from "@/lib/config";
import type { Who } from "@/lib/db/queries/audit";
import type { Db } from "@/lib/db/types";
import { ConflictError } from "@/lib/errors";
import type { CreateUserRequest, SetupRequest } from "@/lib/validations/auth";
import { withTransaction } from "./transaction";

/**
 * Creates a user with a password (Better Auth hashes it with scrypt). Without a password this is an
 * invitation: the user exists with its role and signs in with single sign-on, or is given a password later.
 * `via` names the path in the audit entry when it is not an admin's request (setup, the environment).
 */
export function createUser(db: Db, req: CreateUserRequest, who: Who, via?: string): Promise<UserInfo> {
  return withTransaction({ db, who }, async ({ tx, audit }) => {
    if (await userIdByEmail(tx, req.email))
      throw new ConflictError(`A user with the email ${req.email} already exists.`);
    // Better Auth on this transaction: the user, its account and the audit entry commit together.
    const auth = await getAuth(tx);
    const { user } = await auth.api.createUser({
      body: {
        email: req.email,
        name: req.name ?? req.email.split("@")[0],
        role: req.role,
        ...(req.password ? { password: req.password } : {}),
      },
    });
    const created = await getUser(tx, user.id);
    await audit({
      action: "user.created",
      target: created.email,
      details: { role: created.role, password: Boolean(req.password), ...(via ? { via } : {}) },
    });
    return created;
  });
}

/** The one-time setup: creates the first admin, refused once any admin exists. */
export async function setupFirstAdmin(db: Db, req: SetupRequest, who: Who): Promise<UserInfo> {
  await requireSetupOpen(db);
  const user = await createUser(
    db,
    { email: req.email, name: req.name, password: req.password, role: "admin" },
    who,
    "setup",
  );
  markSetupDone(db);
  return user;
}

/**
 * ADMIN_EMAIL / ADMIN_PASSWORD: creates that admin at start when there is no user yet. Idempotent; the
 * password is never logged.
 */
export async function bootstrapAdminFromEnv(db: Db): Promise<"created" | "skipped"> {
  const admin = config().bootstrapAdmin;
  if (!admin) return "skipped";
  const { email, password } = admin;
  if ((await countUsers(db)) > 0) return "skipped";
  try {
    await createUser(
      db,
      { email, password, role: "admin" },
      { actor: { type: "system", label: "ADMIN_EMAIL" } },
      "environment",
    );
  } catch (err) {
    // Another instance starting at the same time made it first.
    if (err instanceof ConflictError) return "skipped";
    throw err;
  }
  console.log(`[auth] created the first admin ${email} (from ADMIN_EMAIL)`);
  return "created";
}
