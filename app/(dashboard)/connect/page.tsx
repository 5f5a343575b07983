import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConnectView } from "@/components/connect/connect-view";
import { requestOrigin } from "@/lib/auth/client-ip";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { recordAudit } from "@/lib/db/queries/audit";
import { getEnrollmentKey } from "@/lib/enrollment/workspaces";
import { CODER_CALLBACK_PATH, coderSignInConfigured } from "@/lib/auth/coder";
import { coderSignIns } from "@/lib/auth/users";
import { config } from "@/lib/config";
import { coderSyncConfig } from "@/lib/coder/config";
import { getSyncState } from "@/lib/db/queries/coder-sync";
import {
  archiveModuleBlock,
  copiedModule,
  preferredModuleBlock,
  templatePushCommand,
  unreachableUrlWarning,
} from "@/lib/terraform/template-blocks";
import { dashboardUrlFrom } from "./dashboard-url";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect workspaces" };

export default async function ConnectPage() {
  const user = await requirePage();
  const requestHeaders = await headers();
  const dashboardUrl = dashboardUrlFrom(requestHeaders);
  const db = await getDb();
  const [{ key, source }, lastSync, signIns] = await Promise.all([
    getEnrollmentKey(db),
    getSyncState(db),
    coderSignIns(db),
  ]);
  // The key lets anyone enroll a workspace: admins only, and each showing is audited.
  const admin = user.role === "admin";
  if (admin) {
    await recordAudit(db, {
      actor: { type: "user", id: user.id, label: user.label },
      action: "enrollment_key.viewed",
      ...requestOrigin(new Headers(requestHeaders)),
    });
  }
  return (
    <ConnectView
      info={{
        dashboardUrl,
        enrollmentKey: admin ? key : null,
        keySource: source,
        urlWarning: unreachableUrlWarning(dashboardUrl),
        moduleBlock: preferredModuleBlock(dashboardUrl),
        archiveBlock: dashboardUrl.startsWith("https:") ? archiveModuleBlock(dashboardUrl) : null,
        copy: copiedModule(dashboardUrl),
        pushCommand: templatePushCommand(admin ? key : null),
        coder: {
          coderUrl: config().coder.url,
          sync: { configured: coderSyncConfig() !== null, last: lastSync },
          signIn: {
            configured: coderSignInConfigured(),
            callbackUrl: `${(config().appUrl ?? dashboardUrl).replace(/\/+$/, "")}${CODER_CALLBACK_PATH}`,
            ...signIns,
          },
        },
      }}
    />
  );
}
