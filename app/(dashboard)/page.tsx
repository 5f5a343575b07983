import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { FleetOverviewView } from "@/components/fleet/fleet-overview";
import { getDb } from "@/lib/db";
import { getFleetOverview } from "@/lib/db/queries/fleet";
import { fleetKeys } from "@/lib/query/fleet";
import { prefetchAll } from "@/lib/query/prefetch";
import { parseRange } from "@/lib/validations/range";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Fleet overview" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function OverviewPage({ searchParams }: Props) {
  // The overview is the fleet's: a member's home is their own storage (My storage).
  const { role } = await requirePage("member");
  if (role === "member") redirect("/me");
  const range = parseRange(await searchParams);
  const state = await prefetchAll([
    { queryKey: fleetKeys.overview(range), load: async () => getFleetOverview(await getDb(), range) },
  ]);
  return (
    <HydrationBoundary state={state}>
      <FleetOverviewView />
    </HydrationBoundary>
  );
}
