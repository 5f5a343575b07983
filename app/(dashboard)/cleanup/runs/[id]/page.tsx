import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RunView } from "@/components/cleanup/run-view";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { getRunDetail } from "@/lib/db/queries/cleanup-views";
import { cleanupKeys } from "@/lib/query/cleanup";
import { prefetchOneOrNotFound } from "@/lib/query/prefetch";
import { uuidParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cleanup run" };

export default async function CleanupRunPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePage();
  const parsed = uuidParam.safeParse((await params).id);
  if (!parsed.success) notFound();
  const state = await prefetchOneOrNotFound(cleanupKeys.run(parsed.data), async () => getRunDetail(await getDb(), parsed.data));
  return (
    <HydrationBoundary state={state}>
      <RunView id={parsed.data} />
    </HydrationBoundary>
  );
}
