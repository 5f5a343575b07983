import type { FleetOverview } from "@/lib/db/queries/fleet";
import { formatCountOf, formatPercent } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { Stat } from "@/components/ui/panel";
import { RangeChangeStat } from "@/components/ui/range-change-stat";

function GrowthStat({ label, growth }: { label: string; growth: FleetOverview["growth"]["d1"] }) {
  return (
    <Stat
      label={label}
      href="/workspaces?sort=change7d"
      sub={
        growth.ratio === null ? "no earlier data" : `${growth.ratio >= 0 ? "+" : ""}${formatPercent(growth.ratio, 1)}`
      }
    >
      <Bytes value={growth.bytes} delta />
    </Stat>
  );
}

export function FleetStats({ data }: { data: FleetOverview }) {
  return (
    <div className="grid-4" data-testid="fleet-stats">
      <Stat
        label="Total storage"
        href="/workspaces"
        sub={`${formatCountOf(data.total.workspaces, "workspace")} · ${formatCountOf(data.total.roots, "root")}`}
      >
        <Bytes value={data.total.bytes} />
      </Stat>
      <GrowthStat label="Growth 24 h" growth={data.growth.d1} />
      <GrowthStat label="Growth 7 d" growth={data.growth.d7} />
      {/* The picked range's change, from the chart's own first and last points: one baseline day for both. */}
      <RangeChangeStat
        label={`Change over ${data.range.key === "custom" ? "the range" : data.range.key.replace("d", " days")}`}
        series={data.series.points.map((p) => ({ day: p.day, bytes: p.total }))}
        testId="fleet-range-change"
      />
    </div>
  );
}
