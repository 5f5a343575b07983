import type { Metadata } from "next";
import { StorageView } from "@/components/settings/storage-view";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { getStorageSettings } from "@/lib/db/queries/storage";
import { rolloutView } from "@/lib/services/reporter-rollout";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const caller = await requirePage();
  const db = await getDb();
  const rollout = caller.role === "admin" ? await rolloutView(db) : null;
  return <StorageView settings={await getStorageSettings(db)} rollout={rollout} />;
}
