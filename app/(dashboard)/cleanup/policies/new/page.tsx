import type { Metadata } from "next";
import { NewPolicy } from "@/components/cleanup/policy-view";
import { requirePage } from "@/lib/auth/page";
import { parseNewRunSearchParams } from "@/lib/validations/cleanup";
import { PageHeader } from "@/components/ui/page-header";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New cleanup policy" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /cleanup/policies/new?recipe=: a finding or agent page that names a recipe opens the form with it chosen. */
export default async function NewPolicyPage({ searchParams }: Props) {
  await requirePage("admin");
  const { recipe } = parseNewRunSearchParams(await searchParams);
  return (
    <div className="stack">
      <PageHeader
        title="New cleanup policy"
        sub={
          <>
            A recipe, its parameters and scope, run daily or weekly by the dashboard&apos;s scheduler. Its runs are dry
            runs, which change nothing, until an admin confirms the figure its preview shows.
          </>
        }
      />
      <NewPolicy recipe={recipe} />
    </div>
  );
}
