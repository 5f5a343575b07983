import type { Metadata } from "next";
import { DashboardShell } from "@/components/layout/dashboard-shell";
import { shellUser } from "@/lib/auth/page";
import DashboardNotFound from "./(dashboard)/not-found";

export const metadata: Metadata = { title: "Not found" };

/**
 * An address that is no page at all (a mistyped or outdated link), or a page whose record the dashboard's layout
 * did not find (a 404 sent before streaming): with the header and navigation for a signed-in user. Without this
 * file Next answers with its own 404 page, whose inline style attributes the Content-Security-Policy blocks, and
 * which offers no way back.
 */
export default async function NotFound() {
  const user = await shellUser();
  return user ? (
    <DashboardShell user={user}>
      <DashboardNotFound />
    </DashboardShell>
  ) : (
    <main className="main">
      <DashboardNotFound />
    </main>
  );
}
