"use client";

import Link from "next/link";
import type { WorkspaceListRow } from "@/lib/db/queries/workspace-list";
import type { OwnerOffer } from "@/lib/services/my-storage";
import { fullInText } from "@/lib/format/full-in";
import { formatDays } from "@/lib/format/numbers";
import { agentLabel } from "@/components/agents/agent-label";
import { Bytes } from "@/components/ui/bytes";
import { Panel, Stat } from "@/components/ui/panel";
import { VolumeBar } from "@/components/workspaces/workspace-columns";
import { KeepForm } from "./my-keeps";
import { OwnerOfferItem } from "./owner-offer";

/**
 * One of the owner's workspaces: what fills it (its total, volume, largest agent, growth: the workspace page has
 * every agent and folder), and what the owner may run on it, largest first.
 */
export function MyWorkspace({ workspace: w, offers }: { workspace: WorkspaceListRow; offers: OwnerOffer[] }) {
  const fullIn = w.volume
    ? fullInText(w.volume, w.daysUntilFull)
    : w.daysUntilFull === null
      ? "—"
      : formatDays(w.daysUntilFull);
  return (
    <Panel
      title={w.name}
      id={`workspace-${w.id}`}
      actions={<Link href={`/workspaces/${encodeURIComponent(w.id)}`}>Agents, folders and history →</Link>}
    >
      <div className="stack" data-testid={`my-workspace-${w.id}`}>
        <div className="grid-stats">
          <Stat label="Agents' storage">
            <Bytes value={w.totalBytes} />
          </Stat>
          <Stat label="Volume used">
            <VolumeBar volume={w.volume} />
          </Stat>
          <Stat
            label="Largest agent"
            sub={w.largestAgentBytes !== null ? <Bytes value={w.largestAgentBytes} /> : undefined}
          >
            {w.largestAgent ? agentLabel(w.largestAgent) : "—"}
          </Stat>
          <Stat
            label="7 days"
            sub={
              w.growthBytesPerDay ? (
                <>
                  {<Bytes value={w.growthBytesPerDay} />} a day · full in {fullIn}
                </>
              ) : undefined
            }
          >
            {w.change7dBytes === null ? "—" : <Bytes value={w.change7dBytes} />}
          </Stat>
        </div>
        <div className="stack snug">
          <h3>What you can free</h3>
          {offers.length ? (
            <ul className="list">
              {offers.map((o) => (
                <OwnerOfferItem key={o.recipe} offer={o} />
              ))}
            </ul>
          ) : (
            <p className="small muted">Nothing the owners&apos; recipes would move here as of the latest report.</p>
          )}
        </div>
        <KeepForm workspaceId={w.id} />
      </div>
    </Panel>
  );
}
