import type { Metadata } from "next";
import { NewPolicy } from "@/components/cleanup/policy-view";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New cleanup policy" };

export default async function NewPolicyPage() {
  await requirePage("admin");
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>New cleanup policy</h1>
          <p className="sub">
            A recipe, its parameters and scope, run daily or weekly by the dashboard&apos;s scheduler. Its runs are dry
            runs, which change nothing, until an admin confirms the figure its preview shows.
          </p>
        </div>
      </div>
      <NewPolicy />
    </div>
  );
}
