import type { Metadata } from "next";
import { StorageView } from "@/components/settings/storage-view";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { getStorageSettings } from "@/lib/db/queries/storage";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  await requirePage();
  return <StorageView settings={await getStorageSettings(await getDb())} />;
}
