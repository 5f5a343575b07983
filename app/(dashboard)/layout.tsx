import type { ReactNode } from "react";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { requireKnownTarget, requirePage } from "@/lib/auth/page";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The role this path needs, and the record it names, checked here so that a refusal or an unknown id is
  // answered before streaming starts (a real 403 or 404); each page checks again, as a layout is not
  // re-rendered on every navigation.
  const user = await requirePage();
  await requireKnownTarget(user);
  return <DashboardShell user={{ email: user.label, name: user.name, role: user.role }}>{children}</DashboardShell>;
}
