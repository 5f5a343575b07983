import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WorkspaceView } from "@/components/workspace/workspace-view";
import { getDb } from "@/lib/db";
import { getWorkspaceDetail } from "@/lib/db/queries/workspaces";
import { prefetchAll } from "@/lib/query/prefetch";
import { rangeParams } from "@/lib/query/range";
import { workspaceKeys } from "@/lib/query/workspaces";
import { parseWorkspaceSearchParams } from "./search-params";

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
  const { id: raw } = await params;
  const id = decodeURIComponent(raw);
  const range = parseWorkspaceSearchParams(await searchParams);
  let missing = false;
  const state = await prefetchAll([
    {
      queryKey: workspaceKeys.detail(id, range),
      load: async () => {
        const detail = await getWorkspaceDetail(await getDb(), id, rangeParams(range));
        if (!detail) {
          missing = true;
          throw new Error("not found");
        }
        return detail;
      },
    },
  ]);
  if (missing) notFound();
  return (
    <HydrationBoundary state={state}>
      <WorkspaceView id={id} />
    </HydrationBoundary>
  );
}
