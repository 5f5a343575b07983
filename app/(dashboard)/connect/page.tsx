import type { Metadata } from "next";
import { headers } from "next/headers";
import { ConnectView } from "@/components/connect/connect-view";
import { getDb } from "@/lib/db";
import { getEnrollmentKey } from "@/lib/enrollment";
import { coderTemplateSnippet } from "@/lib/reporter/coder-template";
import { dashboardUrlFrom } from "./dashboard-url";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect workspaces" };

export default async function ConnectPage() {
  const dashboardUrl = dashboardUrlFrom(await headers());
  const { key, source } = await getEnrollmentKey(await getDb());
  return <ConnectView info={{ dashboardUrl, enrollmentKey: key, keySource: source, snippet: coderTemplateSnippet(dashboardUrl) }} />;
}
