import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { needsSetup } from "@/lib/auth/users";
import { getDb } from "@/lib/db";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

/** The one-time setup: only while no admin exists (the endpoint refuses afterwards as well). */
export default async function SetupPage() {
  if (!(await needsSetup(await getDb()))) redirect("/sign-in");
  return <SetupForm />;
}
