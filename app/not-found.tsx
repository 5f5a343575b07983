import type { Metadata } from "next";
import DashboardNotFound from "./(dashboard)/not-found";

export const metadata: Metadata = { title: "Not found" };

/**
 * An address that is no page at all (a mistyped or outdated link). Without this file Next answers with its own
 * 404 page, whose inline style attributes the Content-Security-Policy blocks, and which offers no way back.
 */
export default function NotFound() {
  return (
    <main className="main">
      <DashboardNotFound />
    </main>
  );
}
