import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunView } from "@/components/cleanup/run-view";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { cleanupKeys, FIRST_PAGE } from "@/lib/query/cleanup";
import { prefetchOneOrNotFound } from "@/lib/query/prefetch";
import { parseRunJobsSearchParams, uuidParam } from "@/lib/validations/cleanup";
import type { PageSearchParams } from "@/lib/validations/search-params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cleanup run" };

export default async function CleanupRunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<PageSearchParams>;
}) {
  await requirePage();
  const parsed = uuidParam.safeParse((await params).id);
  if (!parsed.success) notFound();
  const view = parseRunJobsSearchParams(await searchParams);
  // The run's first page, in the shape of the client's infinite query (its pages and their keys).
  const state = await prefetchOneOrNotFound(cleanupKeys.run(parsed.data, view), async () => {
    const detail = await getRunDetail(await getDb(), parsed.data, view);
    return detail && { pages: [detail], pageParams: [FIRST_PAGE] };
  });
  return (
    <HydrationBoundary state={state}>
      <RunView id={parsed.data} />
    </HydrationBoundary>
  );
}
