import "server-only";
import { and, asc, count, eq, ne, or, isNull, sql } from "drizzle-orm";
import { ADMIN_CHANGES_LOCK } from "@/lib/db/advisory-locks";
import { recordAudit, type Who } from "@/lib/db/queries/audit";
import type { Db } from "@/lib/db/types";
import { config } from "@/lib/config";
import { accounts, users } from "@/lib/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import type { CreateUserRequest, Role, SetupRequest, UpdateUserRequest } from "@/lib/validations/auth";
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

const asRole = (r: string | null): Role => (r === "admin" || r === "viewer" ? r : "member");
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
    role: asRole(r.role),
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

/** The emails of the admins who can sign in: whom a viewer asks for a change only an admin may make. */
export async function adminEmails(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, "admin"), active))
    .orderBy(asc(users.email));
  return rows.map((r) => r.email);
}

async function activeAdmins(db: Db, except?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, "admin"), active, except ? ne(users.id, except) : undefined));
  return row.n;
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

/**
 * Changes a user's role and/or disables or enables it. A disabled user's sessions end at once. The last
 * active admin can be neither demoted nor disabled (the check and the change run under one lock).
 */
export async function updateUser(db: Db, id: string, req: UpdateUserRequest, who: Who): Promise<UserInfo> {
  const after = await db.transaction(async (tx) => {
    // Serialises admin changes: two admins demoting each other at once cannot both succeed.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_CHANGES_LOCK})`);
    const before = await getUser(tx, id);
    const losesAdmin = before.role === "admin" && !before.disabled && (req.role === "viewer" || req.disabled === true);
    if (losesAdmin && (await activeAdmins(tx, id)) === 0) {
      throw new ConflictError("This is the last active admin: make another user admin first.");
    }
    const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
    if (req.role) set.role = req.role;
    if (req.disabled !== undefined)
      Object.assign(set, {
        banned: req.disabled,
        banReason: req.disabled ? "disabled by an admin" : null,
        banExpires: null,
      });
    await tx.update(users).set(set).where(eq(users.id, id));
    const after = await getUser(tx, id);
    if (before.role !== after.role) {
      await recordAudit(tx, {
        ...who,
        action: "user.role_changed",
        target: after.email,
        details: { from: before.role, to: after.role },
      });
    }
    if (before.disabled !== after.disabled) {
      await recordAudit(tx, { ...who, action: after.disabled ? "user.disabled" : "user.enabled", target: after.email });
    }
    return after;
  });
  if (req.disabled) {
    const auth = await getAuth(db);
    const ctx = await auth.$context;
    await ctx.internalAdapter.deleteUserSessions(id);
  }
  return after;
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
