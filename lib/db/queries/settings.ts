import "server-only";
import { eq } from "drizzle-orm";
import { settings } from "../schema";
import type { Db } from "../types";

export async function getSetting(db: Db, key: string): Promise<string | null> {
  const rows = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return rows[0]?.value ?? null;
}

/** Stores `value` unless the key already has one; returns whichever value won (safe under concurrent starts). */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  await db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
  return (await getSetting(db, key))!;
}
