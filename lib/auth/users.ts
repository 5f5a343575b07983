import "server-only";
import { and, asc, count, eq, or, isNull, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/types";
import { accounts, users } from "@/lib/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { storedRole, type Role } from "@/lib/validations/auth";
import { CODER_PROVIDER_ID } from "./coder";

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

/** The id of the user with this email, if any. */
export async function userIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

/** How many users there are (invitations included). */
export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row.n;
}

/** True until the first admin exists (then the setup page and endpoint refuse, for good). */
export async function needsSetup(db: Db): Promise<boolean> {
  if (setupDone.has(db)) return false;
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, "admin"));
  if (row.n > 0) setupDone.add(db);
  return row.n === 0;
}
const setupDone = new WeakSet<Db>();

/** Setup is over for good on this database: the first admin was just made. */
export function markSetupDone(db: Db): void {
  setupDone.add(db);
}

/** 409 once any admin exists: setup is over. */
export async function requireSetupOpen(db: Db): Promise<void> {
  if (!(await needsSetup(db))) throw new ConflictError("Setup is done: an admin exists. Sign in instead.");
}

/** Sign in with Coder's proof of work: how many people have a Coder account here, and the latest one's time. */
export async function coderSignIns(db: Db): Promise<{ people: number; latestAt: string | null }> {
  const [r] = await db
    .select({ people: count(), latestAt: sql<Date | string | null>`max(${accounts.updatedAt})` })
    .from(accounts)
    .where(eq(accounts.providerId, CODER_PROVIDER_ID));
  return { people: Number(r.people), latestAt: r.latestAt ? new Date(r.latestAt).toISOString() : null };
}
