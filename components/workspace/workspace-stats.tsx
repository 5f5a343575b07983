import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { formatCountOf, formatDays } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { Stat } from "@/components/ui/panel";

export function WorkspaceStats({ data }: { data: WorkspaceDetail }) {
  const w = data.workspace;
  const v = w.volume;
  return (
    <div className="grid-4" data-testid="workspace-stats">
      <Stat label="Total storage" href="#usage" sub={formatCountOf(w.rootCount, "root")}>
        <Bytes value={w.totalBytes} />
      </Stat>
      {/* The same 7 days, a day at a time: the change ÷ 7 (the volume's own trend is under "Full in"). */}
      <Stat
        label="Change 7 d"
        href="#usage"
        sub={
          w.change7dBytes === null ? (
            "no report 7 days ago"
          ) : (
            <>
              <Bytes value={w.change7dBytes / 7} perDay /> on average
            </>
          )
        }
      >
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
          sub={
            data.volume.forecast.fullAt ? (
              <>
                on {data.volume.forecast.fullAt.slice(0, 10)}, at Used&apos;s{" "}
                <Bytes value={w.growthBytesPerDay} perDay /> over the last 14 days
              </>
            ) : (
              "not growing"
            )
          }
        >
          {formatDays(w.daysUntilFull)}
        </Stat>
      )}
    </div>
  );
}
