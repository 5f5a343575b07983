"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { latestReportOptions } from "@/lib/query/workspaces";
import { RelativeTime } from "@/components/ui/time";

/**
 * The last step of connecting: "waiting for the first report…", which turns into the workspace that reported once
 * one has (and links to the not-reporting list, where a workspace that cannot report says why).
 */
export function FirstReport() {
  const query = useQuery(latestReportOptions());
  const latest = query.data?.rows[0];
  if (latest?.lastCollectedAt) {
    return (
      <p className="notice" data-testid="first-report" role="status">
        <strong>Reporting.</strong> Latest report:{" "}
        <Link href={`/workspaces/${encodeURIComponent(latest.id)}`}>
          {latest.owner}/{latest.name}
        </Link>{" "}
        <RelativeTime value={latest.lastCollectedAt} />. <Link href="/">Fleet overview →</Link>
      </p>
    );
  }
  return (
    <p className="notice" data-testid="first-report" role="status">
      <strong>Waiting for the first report…</strong> A workspace reports when it starts with the updated template (and
      every 30 minutes after). One that cannot says why under <Link href="/#not-reporting">Not reporting</Link> on the
      overview.
    </p>
  );
}
