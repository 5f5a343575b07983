import "server-only";
import type { Db } from "@/lib/db";
import { saveOwnerEmails } from "@/lib/db/queries/notifications";
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
 * users). Returns how many were kept; throws what Coder answered (the sync logs it and goes on).
 */
export async function syncOwnerEmails(db: Db, client: CoderClient, pageSize: number, now: Date): Promise<number> {
  if (!client.listUsers) return 0;
  const contacts: { owner: string; email: string }[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = await client.listUsers({ limit: pageSize, offset });
    for (const u of page.users) {
      const email = usableEmail(u.email);
      if (email) contacts.push({ owner: u.username, email });
    }
    if (page.users.length === 0 || offset + pageSize >= page.count) break;
  }
  await saveOwnerEmails(db, contacts, now);
  return contacts.length;
}
