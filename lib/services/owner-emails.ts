import "server-only";
import type { Db } from "@/lib/db";
import { forgetCoderEmails, saveOwnerEmails, saveReportedEmail } from "@/lib/db/queries/notifications";
import type { CoderClient } from "@/lib/coder/client";

/** The Coder provider's placeholder for a user without an address: counts as none. */
const PLACEHOLDER = "default@example.com";

/** An address fit to send to, or null for an empty or placeholder one. */
export function usableEmail(email: string | null | undefined): string | null {
  const e = email?.trim() ?? "";
  return e === "" || e.toLowerCase() === PLACEHOLDER ? null : e;
}

/**
 * Keeps each Coder user's email address for the owners' notices (docs/coder-sync.md: the token needs to read
 * users). Coder's address wins over a report's; a user Coder has none for (empty, or the placeholder) loses the
 * one Coder gave before, so their reports' address takes its place (docs/notifications.md). Returns how many were
 * kept; throws what Coder answered (the sync logs it and goes on).
 */
export async function syncOwnerEmails(db: Db, client: CoderClient, pageSize: number, now: Date): Promise<number> {
  if (!client.listUsers) return 0;
  const contacts: { owner: string; email: string }[] = [];
  const without: string[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await client.listUsers({ limit: pageSize, offset });
    for (const u of page.users) {
      const email = usableEmail(u.email);
      if (email) contacts.push({ owner: u.username, email });
      else without.push(u.username);
    }
    if (page.users.length === 0 || offset + pageSize >= page.count) break;
  }
  await db.transaction(async (tx) => {
    await saveOwnerEmails(tx, contacts, now);
    await forgetCoderEmails(tx, without);
  });
  return contacts.length;
}

/** The address each owner's reports last sent, per database: a report that repeats it writes nothing. */
const reported = new WeakMap<Db, Map<string, string>>();
/** Owners remembered per database before the memory starts over (a fleet has far fewer owners). */
const REMEMBERED = 10_000;

/**
 * Keeps the address a report sent for its owner (CODER_WORKSPACE_OWNER_EMAIL, set by the module) where Coder's
 * users API gave none. Called after the report is stored, outside its transaction; an empty or placeholder
 * address changes nothing.
 */
export async function keepReportedEmail(db: Db, owner: string, address: string | undefined, now: Date) {
  const email = usableEmail(address);
  if (!email) return;
  let seen = reported.get(db);
  if (!seen || seen.size >= REMEMBERED) reported.set(db, (seen = new Map()));
  if (seen.get(owner) === email) return;
  await saveReportedEmail(db, owner, email, now);
  seen.set(owner, email);
}
