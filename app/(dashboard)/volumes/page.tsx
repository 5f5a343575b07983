import type { Metadata } from "next";
import { AtRiskView } from "@/components/fleet/at-risk-view";
import { requirePage } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Volumes at risk" };

export default async function VolumesAtRiskPage() {
  await requirePage();
  return <AtRiskView />;
}
