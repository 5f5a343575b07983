import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { agentLabel } from "@/components/agents/agent-label";
import { AgentView } from "@/components/agents/agent-view";
import { getDb } from "@/lib/db";
import { getAgentDetail } from "@/lib/db/queries/agents";
import { agentKeys } from "@/lib/query/agents";
import { prefetchOneOrNotFound } from "@/lib/query/prefetch";
import { parseRange } from "@/lib/validations/range";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ agent: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { agent } = await params;
  return { title: agentLabel(decodeURIComponent(agent)) };
}

export default async function AgentPage({ params, searchParams }: Props) {
  await requirePage();
  const agent = decodeURIComponent((await params).agent);
  const range = parseRange(await searchParams);
  const state = await prefetchOneOrNotFound(agentKeys.detail(agent, range), async () =>
    getAgentDetail(await getDb(), agent, range),
  );
  return (
    <HydrationBoundary state={state}>
      <AgentView agent={agent} />
    </HydrationBoundary>
  );
}
