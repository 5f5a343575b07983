import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PolicyView } from "@/components/cleanup/policy-view";
import { requirePage } from "@/lib/auth/page";
import { uuidParam } from "@/lib/validations/cleanup";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Cleanup policy" };

export default async function PolicyPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePage();
  const parsed = uuidParam.safeParse((await params).id);
  if (!parsed.success) notFound();
  return <PolicyView id={parsed.data} />;
}
