import type { Metadata } from "next";
import { AgentsIndex } from "@/components/agents/agents-index";
import { getDb } from "@/lib/db";
import { topAgents } from "@/lib/db/queries/fleet-lists";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents" };

/** Every series of the fleet chart: the catalog's agents seen in reports, then modules, caches and the rest. */
const EVERY_SERIES = 1000;

export default async function AgentsPage() {
  await requirePage();
  return <AgentsIndex agents={await topAgents(await getDb(), EVERY_SERIES)} />;
}
