"use client";

import { useQuery } from "@tanstack/react-query";
import { myStorageOptions } from "@/lib/query/me";
import { PageHeader } from "@/components/ui/page-header";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/states";
import { MyKeeps } from "./my-keeps";
import { MyNoticeSwitches } from "./my-notice-switches";
import { MyNotices } from "./my-notices";
import { MyTrash } from "./my-trash";
import { MyWorkspace } from "./my-workspace";

/**
 * My storage: a workspace owner's home page. Their workspaces, what fills each and what they may free there
 * without an admin (to the trash, restorable), their trash and their Keeps.
 */
export function MyStorageView() {
  const query = useQuery(myStorageOptions());
  return (
    <div className="stack">
      <PageHeader
        title="My storage"
        sub="Your workspaces, what fills them, and what you can free yourself: to the trash, restorable for 7 days."
      />
      <QueryView
        query={query}
        isEmpty={(d) => d.workspaces.length === 0}
        empty="No workspace of yours reports here yet."
      >
        {(d) => {
          const names = new Map(d.workspaces.map((w) => [w.id, w.name]));
          return (
            <>
              <MyNotices workspaces={d.workspaces} />
              {d.workspaces.map((w) => (
                <MyWorkspace key={w.id} workspace={w} offers={d.offers.filter((o) => o.workspaceId === w.id)} />
              ))}
              <Panel title="Your trash">
                <MyTrash trash={d.trash} names={names} />
              </Panel>
              <Panel title="Kept from cleanup">
                <MyKeeps keeps={d.keeps} />
              </Panel>
              <MyNoticeSwitches />
            </>
          );
        }}
      </QueryView>
    </div>
  );
}
