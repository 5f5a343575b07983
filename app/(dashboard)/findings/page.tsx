import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { FindingsView } from "@/components/findings/findings-view";
import { getDb } from "@/lib/db";
import { getRulesView, listFindings } from "@/lib/db/queries/findings";
import { findingKeys, FINDINGS_PAGE_SIZE } from "@/lib/query/findings";
import { prefetchAll } from "@/lib/query/prefetch";
import { parseFindingsSearchParams } from "@/lib/validations/findings";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Findings" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function FindingsPage({ searchParams }: Props) {
  const { scope } = await requirePage("member");
  const state = parseFindingsSearchParams(await searchParams);
  const dehydrated = await prefetchAll([
    {
      // The first page, as the client's infinite query holds it.
      queryKey: findingKeys.list(state),
      load: async () => ({
        pages: [await listFindings(await getDb(), scope, { ...state, limit: FINDINGS_PAGE_SIZE })],
        pageParams: [""],
      }),
    },
    { queryKey: findingKeys.rules(), load: async () => getRulesView(await getDb()) },
  ]);
  return (
    <HydrationBoundary state={dehydrated}>
      <FindingsView />
    </HydrationBoundary>
  );
}
