import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  await requirePage("admin");
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="sub">
            Sign-ins, user and role changes, tokens, settings, workspace token resets, enrollment key views, exports and
            cleanup (previews, runs, policies, and each workspace&apos;s job claims and results).
          </p>
        </div>
      </div>
      <AuditView />
    </div>
  );
}
