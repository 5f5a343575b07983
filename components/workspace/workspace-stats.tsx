import type { WorkspaceDetail } from "@/lib/db/queries/workspaces";
import { formatRate } from "@/lib/format/bytes";
import { formatDays, formatPercent } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { Stat } from "@/components/ui/panel";

export function WorkspaceStats({ data }: { data: WorkspaceDetail }) {
  const w = data.workspace;
  const v = data.volume;
  return (
    <div className="grid-4" data-testid="workspace-stats">
      <Stat label="Agent storage" href="#usage" sub={`${w.rootCount} roots`}>
        <Bytes value={w.totalBytes} />
      </Stat>
      <Stat label="Change 7 d" href="#usage" sub={formatRate(w.growthBytesPerDay)}>
        <Bytes value={w.change7dBytes} delta />
      </Stat>
      <Stat label="Volume used" href="#volume" sub={v.totalBytes ? <><Bytes value={v.freeBytes} /> free of <Bytes value={v.totalBytes} /></> : "no volume data"}>
        {formatPercent(v.usedPercent === null ? null : v.usedPercent / 100)}
      </Stat>
      {(v.usedPercent ?? 0) >= 99.5 ? (
        <Stat label="Full in" href="#volume" sub="no space left: free some now">
          full
        </Stat>
      ) : (
        <Stat label="Full in" href="#volume" sub={v.forecast.fullAt ? `forecast ${v.forecast.fullAt.slice(0, 10)}` : "not growing"}>
          {formatDays(w.daysUntilFull)}
        </Stat>
      )}
    </div>
  );
}
