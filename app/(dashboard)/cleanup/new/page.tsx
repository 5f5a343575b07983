import type { Metadata } from "next";
import { NewRunForm } from "@/components/cleanup/new-run-form";
import { requirePage } from "@/lib/auth/page";
import { parseNewRunSearchParams } from "@/lib/validations/cleanup";
import { PageHeader } from "@/components/ui/page-header";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New cleanup" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** /cleanup/new?recipe=&workspace=&agent=&free=1: admins only (viewers get the not-found page). */
export default async function NewCleanupPage({ searchParams }: Props) {
  await requirePage("admin");
  const free = parseNewRunSearchParams(await searchParams).free;
  return (
    <div className="stack">
      <PageHeader
        title={free ? "Free space" : "New cleanup"}
        sub={
          <>
            {free
              ? "What each recipe would free on this workspace. Pick the figures to act on, then confirm them."
              : "Preview what the run would free in each workspace, then confirm that figure."}
          </>
        }
      />
      <NewRunForm />
    </div>
  );
}
