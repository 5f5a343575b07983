import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { MyStorageView } from "@/components/me/my-storage-view";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { coderUsernameOf } from "@/lib/db/queries/owner-cleanup";
import { meKeys } from "@/lib/query/me";
import { prefetchAll } from "@/lib/query/prefetch";
import { myStorage } from "@/lib/services/my-storage";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "My storage" };

export default async function MyStoragePage() {
  const caller = await requirePage("member");
  const state = await prefetchAll([
    {
      queryKey: meKeys.storage(),
      load: async () => {
        const db = await getDb();
        return myStorage(db, await coderUsernameOf(db, caller.id));
      },
    },
  ]);
  return (
    <HydrationBoundary state={state}>
      <MyStorageView />
    </HydrationBoundary>
  );
}
