import type { Metadata } from "next";
import { NewRunForm } from "@/components/cleanup/new-run-form";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "New cleanup" };

/** /cleanup/new?recipe=&workspace=&agent=: admins only (viewers get the not-found page). */
export default async function NewCleanupPage() {
  await requirePage("admin");
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>New cleanup</h1>
          <p className="sub">Preview what the run would free in each workspace, then confirm that figure.</p>
        </div>
      </div>
      <NewRunForm />
    </div>
  );
}
