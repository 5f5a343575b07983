import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { WorkspacesView } from "@/components/workspaces/workspaces-view";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { listWorkspaces } from "@/lib/db/queries/workspace-list";
import { prefetchAll } from "@/lib/query/prefetch";
import { workspaceKeys } from "@/lib/query/workspaces";
import { parseWorkspaceListSearchParams } from "@/lib/validations/workspaces";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Workspaces" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function WorkspacesPage({ searchParams }: Props) {
  const { scope } = await requirePage("member");
  const state = parseWorkspaceListSearchParams(await searchParams);
  const dehydrated = await prefetchAll([
    {
      queryKey: workspaceKeys.list(state),
      load: async () => listWorkspaces(await getDb(), scope, { ...state, coderUrl: config().coder.url }),
    },
  ]);
  return (
    <HydrationBoundary state={dehydrated}>
      <WorkspacesView />
    </HydrationBoundary>
  );
}
