import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { NoticeChannel, OptionalKind } from "@/lib/notify/types";
import { ownerNoticePreferences, users } from "../schema";
import type { Db } from "../types";

// What each owner turned on or off, per channel and optional kind (lib/db/schema/notifications.ts); no row: on.

export type PreferenceRow = { channel: NoticeChannel; kind: OptionalKind; enabled: boolean };

export async function preferenceRows(db: Db, owner: string): Promise<PreferenceRow[]> {
  const rows = await db
    .select({
      channel: ownerNoticePreferences.channel,
      kind: ownerNoticePreferences.kind,
      enabled: ownerNoticePreferences.enabled,
    })
    .from(ownerNoticePreferences)
    .where(eq(ownerNoticePreferences.owner, owner));
  return rows as PreferenceRow[];
}

/** The kinds `owner` turned off on `channel`. */
export async function kindsTurnedOff(db: Db, owner: string, channel: NoticeChannel): Promise<Set<string>> {
  const rows = await db
    .select({ kind: ownerNoticePreferences.kind })
    .from(ownerNoticePreferences)
    .where(
      and(
        eq(ownerNoticePreferences.owner, owner),
        eq(ownerNoticePreferences.channel, channel),
        eq(ownerNoticePreferences.enabled, false),
      ),
    );
  return new Set(rows.map((r) => r.kind));
}

export async function savePreferences(db: Db, owner: string, rows: PreferenceRow[], at: Date): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(ownerNoticePreferences)
    .values(rows.map((r) => ({ owner, ...r, updatedAt: at })))
    .onConflictDoUpdate({
      target: [ownerNoticePreferences.owner, ownerNoticePreferences.channel, ownerNoticePreferences.kind],
      set: { enabled: sql`excluded.enabled`, updatedAt: sql`excluded.updated_at` },
    });
}

/** The Coder username of a dashboard user: whose workspaces' notices they get (null: none known). */
export async function coderUsernameOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ name: users.coderUsername }).from(users).where(eq(users.id, userId));
  return row?.name ?? null;
}
