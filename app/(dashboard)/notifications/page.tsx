import { HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { NotificationsView } from "@/components/notifications/notifications-view";
import { SettingsPanel } from "@/components/notifications/settings-panel";
import { PageHeader } from "@/components/ui/page-header";
import { requirePage } from "@/lib/auth/page";
import { getDb } from "@/lib/db";
import { notificationKeys, NOTICES_PAGE_SIZE } from "@/lib/query/notifications";
import { prefetchAll } from "@/lib/query/prefetch";
import { notificationsView } from "@/lib/services/notification-log";
import { notifySettingsView } from "@/lib/services/notify-settings";
import { parseNoticeSearchParams } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function NotificationsPage({ searchParams }: Props) {
  await requirePage("admin");
  const filters = parseNoticeSearchParams(await searchParams);
  const dehydrated = await prefetchAll([
    {
      // The first page, as the client's infinite query holds it.
      queryKey: notificationKeys.list(filters),
      load: async () => ({
        pages: [await notificationsView(await getDb(), { ...filters, limit: NOTICES_PAGE_SIZE })],
        pageParams: [""],
      }),
    },
    {
      queryKey: notificationKeys.settings(),
      load: async () => ({ settings: await notifySettingsView(await getDb()) }),
    },
  ]);
  return (
    <div className="stack">
      <PageHeader
        title="Notifications"
        sub={
          <>
            What the workspaces&apos; owners were told about their disks (full, filling, lost at a restart), on which
            channel, and whether it went. Each notice is told once per state; a failed send is retried for a day.
          </>
        }
      />
      <HydrationBoundary state={dehydrated}>
        <NotificationsView />
        <SettingsPanel />
      </HydrationBoundary>
    </div>
  );
}
