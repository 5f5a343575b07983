import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import Link from "next/link";
import { RulesEditor } from "@/components/findings/rules-editor";
import { Panel } from "@/components/ui/panel";
import { getDb } from "@/lib/db";
import { getRulesView } from "@/lib/db/queries/findings";
import { findingKeys } from "@/lib/query/findings";
import { prefetchAll } from "@/lib/query/prefetch";
import { requirePage } from "@/lib/auth/page";
import { PageHeader } from "@/components/ui/page-header";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Findings rules" };

export default async function FindingRulesPage() {
  await requirePage("member");
  const dehydrated = await prefetchAll([
    { queryKey: findingKeys.rules(), load: async () => getRulesView(await getDb()) },
  ]);
  return (
    <HydrationBoundary state={dehydrated}>
      <div className="stack">
        <PageHeader
          title="Rules and thresholds"
          sub={
            <>
              What makes a finding: each rule, its severity and its thresholds. Admins change them here; the{" "}
              <Link href="/findings">findings</Link>, the overview and the workspace pages follow at once.
            </>
          }
        />
        <Panel>
          <RulesEditor />
        </Panel>
      </div>
    </HydrationBoundary>
  );
}
