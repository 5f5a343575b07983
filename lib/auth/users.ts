import "server-only";
import { and, asc, count, eq, or, isNull, sql } from "drizzle-orm";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import type { Db } from "@/lib/db/types";
import { config } from "@/lib/config";
import { accounts, users } from "@/lib/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { storedRole, type CreateUserRequest, type Role, type SetupRequest } from "@/lib/validations/auth";
import { CODER_PROVIDER_ID } from "./coder";
import { getAuth } from "./server";

export type UserInfo = {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  /** How the user signs in: "password", "oidc", or both; empty for an invitation not yet accepted. */
  methods: string[];
  createdAt: string;
};

const active = or(isNull(users.banned), eq(users.banned, false));

export async function listUsers(db: Db): Promise<UserInfo[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      banned: users.banned,
      createdAt: users.createdAt,
      methods: sql<
        string[]
      >`coalesce(array_agg(distinct ${accounts.providerId}) filter (where ${accounts.providerId} is not null and (${accounts.providerId} <> 'credential' or ${accounts.password} is not null)), '{}')`,
    })
    .from(users)
    .leftJoin(accounts, eq(accounts.userId, users.id))
    .groupBy(users.id)
    .orderBy(asc(users.email));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: r.name,
    role: storedRole(r.role),
    disabled: r.banned === true,
    methods: r.methods.map((m) => (m === "credential" ? "password" : m)),
    createdAt: r.createdAt.toISOString(),
  }));
}

export async function getUser(db: Db, id: string): Promise<UserInfo> {
  const user = (await listUsers(db)).find((u) => u.id === id);
  if (!user) throw new NotFoundError(`No user ${id}.`);
  return user;
}

/**
 * The admins who can sign in: whom a viewer asks for a change only an admin may make. Their emails only for an
 * admin: an address is what phishing and guessing at the sign-in start from.
 */
export async function adminContacts(db: Db, withEmails: boolean): Promise<{ name: string; email?: string }[]> {
  const rows = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), active))
    .orderBy(asc(users.name), asc(users.email));
  return rows.map((r) => (withEmails ? r : { name: r.name }));
}

/**
 * Creates a user with a password (Better Auth hashes it with scrypt). Without a password this is an
 * invitation: the user exists with its role and signs in with single sign-on, or is given a password later.
 * `via` names the path in the audit entry when it is not an admin's request (setup, the environment).
 */
export async function createUser(db: Db, req: CreateUserRequest, who: Who, via?: string): Promise<UserInfo> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, req.email));
    if (existing) throw new ConflictError(`A user with the email ${req.email} already exists.`);
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
    await recordAudit(tx, {
      ...who,
      action: "user.created",
      target: created.email,
      details: { role: created.role, password: Boolean(req.password), ...(via ? { via } : {}) },
    });
    return created;
  });
}

/** True until the first admin exists (then the setup page and endpoint refuse, for good). */
export async function needsSetup(db: Db): Promise<boolean> {
  if (setupDone.has(db)) return false;
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, "admin"));
  if (row.n > 0) setupDone.add(db);
  return row.n === 0;
}
const setupDone = new WeakSet<Db>();

/** 409 once any admin exists: setup is over. */
export async function requireSetupOpen(db: Db): Promise<void> {
  if (!(await needsSetup(db))) throw new ConflictError("Setup is done: an admin exists. Sign in instead.");
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
  setupDone.add(db);
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
  const [row] = await db.select({ n: count() }).from(users);
  if (row.n > 0) return "skipped";
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

/** Sign in with Coder's proof of work: how many people have a Coder account here, and the latest one's time. */
export async function coderSignIns(db: Db): Promise<{ people: number; latestAt: string | null }> {
  const [r] = await db
    .select({ people: count(), latestAt: sql<Date | string | null>`max(${accounts.updatedAt})` })
    .from(accounts)
    .where(eq(accounts.providerId, CODER_PROVIDER_ID));
  return { people: Number(r.people), latestAt: r.latestAt ? new Date(r.latestAt).toISOString() : null };
}
