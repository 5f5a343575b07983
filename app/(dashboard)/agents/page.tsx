import type { Metadata } from "next";
import { AgentsIndex } from "@/components/agents/agents-index";
import { getDb } from "@/lib/db";
import { everyAgent } from "@/lib/db/queries/fleet-lists";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  await requirePage();
  return <AgentsIndex agents={await everyAgent(await getDb())} />;
}
