import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { LostAtRestartView } from "@/components/restart/lost-at-restart";
import { getDb } from "@/lib/db";
import { getRestartRisk } from "@/lib/db/queries/restart-risk";
import { prefetchAll } from "@/lib/query/prefetch";
import { restartKeys } from "@/lib/query/restart";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Lost at restart" };

export default async function LostAtRestartPage() {
  const { scope } = await requirePage();
  const state = await prefetchAll([
    { queryKey: restartKeys.risk(), load: async () => getRestartRisk(await getDb(), scope) },
  ]);
  return (
    <HydrationBoundary state={state}>
      <LostAtRestartView />
    </HydrationBoundary>
  );
}
