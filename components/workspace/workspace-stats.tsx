import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { formatDays } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { Stat } from "@/components/ui/panel";

export function WorkspaceStats({ data }: { data: WorkspaceDetail }) {
  const w = data.workspace;
  const v = w.volume;
  return (
    <div className="grid-4" data-testid="workspace-stats">
      <Stat label="Agent storage" href="#usage" sub={`${w.rootCount} roots`}>
        <Bytes value={w.totalBytes} />
      </Stat>
      <Stat label="Change 7 d" href="#usage" sub={<Bytes value={w.growthBytesPerDay} perDay />}>
        <Bytes value={w.change7dBytes} delta />
      </Stat>
      <Stat
        label="Volume Use%"
        href="#volume"
        sub={
          v ? (
            <>
              <Bytes value={v.availBytes} /> avail of <Bytes value={v.sizeBytes} />
            </>
          ) : (
            "no volume data"
          )
        }
      >
        {v ? `${v.usePercent}%` : "—"}
      </Stat>
      {v?.full || v?.inodesFull ? (
        <Stat
          label="Full in"
          href="#volume"
          sub={v.full ? "no space left: free some now" : "no inodes left: delete small files"}
        >
          <span className="critical-text">full</span>
        </Stat>
      ) : (
        <Stat
          label="Full in"
          href="#volume"
          sub={data.volume.forecast.fullAt ? `forecast ${data.volume.forecast.fullAt.slice(0, 10)}` : "not growing"}
        >
          {formatDays(w.daysUntilFull)}
        </Stat>
      )}
    </div>
  );
}
