import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { requirePage } from "@/lib/auth/page";
import { PageHeader } from "@/components/ui/page-header";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  await requirePage("admin");
  return (
    <div className="stack">
      <PageHeader
        title="Audit log"
        sub={
          <>
            What changed and who changed it: sign-ins, user and role changes, tokens, settings and rules, workspace
            token resets, the enrollment key, exports, and cleanup (runs, policies, and each workspace&apos;s job claims
            and results). Looking is not recorded (a page, a preview), except the enrollment key being shown: it is a
            secret.
          </>
        }
      />
      <AuditView />
    </div>
  );
}
