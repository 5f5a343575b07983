import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { UsageView } from "@/components/usage/usage-view";
import { getDb } from "@/lib/db";
import { getUsageReport } from "@/lib/db/queries/usage-report";
import { prefetchAll } from "@/lib/query/prefetch";
import { usageKeys } from "@/lib/query/usage";
import { utcDayOf } from "@/lib/series";
import { parseUsageState, usageQueryOf } from "@/lib/validations/usage";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Usage" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function UsagePage({ searchParams }: Props) {
  const { scope } = await requirePage("member");
  const p = parseUsageState(await searchParams, utcDayOf(new Date()));
  const state = await prefetchAll([
    { queryKey: usageKeys.report(p), load: async () => getUsageReport(await getDb(), scope, usageQueryOf(p)) },
  ]);
  return (
    <HydrationBoundary state={state}>
      <UsageView />
    </HydrationBoundary>
  );
}
