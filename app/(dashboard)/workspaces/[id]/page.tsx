import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { WorkspaceView } from "@/components/workspace/workspace-view";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { getWorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { prefetchOneOrNotFound } from "@/lib/query/prefetch";
import { parseRange } from "@/lib/validations/range";
import { workspaceKeys } from "@/lib/query/workspaces";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  return { title: decodeURIComponent(id) };
}

export default async function WorkspacePage({ params, searchParams }: Props) {
  const { scope } = await requirePage("member");
  const { id: raw } = await params;
  const id = decodeURIComponent(raw);
  const range = parseRange(await searchParams);
  const state = await prefetchOneOrNotFound(workspaceKeys.detail(id, range), async () =>
    getWorkspaceDetail(await getDb(), scope, id, { ...range, coderUrl: config().coder.url }),
  );
  return (
    <HydrationBoundary state={state}>
      <WorkspaceView id={id} />
    </HydrationBoundary>
  );
}
