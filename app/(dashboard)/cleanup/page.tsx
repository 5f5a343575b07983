import type { Metadata } from "next";
import { CleanupView } from "@/components/cleanup/cleanup-view";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cleanup" };

export default async function CleanupPage() {
  await requirePage();
  return <CleanupView />;
}
