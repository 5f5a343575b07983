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

/**
 * What Total storage measures and how the whole homes differ from it: the roots (the agents', modules' and package
 * caches' folders) against du -sx ~, whose difference is what the homes hold outside the roots.
 */
function TotalExplained({ data }: { data: FleetOverview }) {
  const home = data.home;
  const outsideRoots = home.home - home.roots;
  return (
    <p className="muted small" data-testid="total-explained">
      <strong>Total storage</strong> is what the reporter measures in the roots (the agents&apos;, modules&apos; and
      package caches&apos; folders) of {formatCountOf(data.total.workspaces, "workspace")}: what a cleanup can act on.
      {home.workspaces > 0 ? (
        <>
          {" "}
          <strong>Whole homes</strong> is <code>du -sx ~</code> of the {formatCountOf(home.workspaces, "workspace")}{" "}
          whose reporter measures the home: <Bytes value={home.roots} /> of it in their roots and{" "}
          <span data-testid="outside-roots">
            <Bytes value={outsideRoots} />
          </span>{" "}
          outside them (project dependencies <Bytes value={home.projects} />, then build output, dotfiles and caches no
          root measures). What fills the homes is below.
        </>
      ) : null}
    </p>
  );
}

export function FleetStats({ data }: { data: FleetOverview }) {
  return (
    <div className="stack" style={{ gap: 8 }}>
      <div className="grid-stats" data-testid="fleet-stats">
        <Stat
          label="Total storage"
          href="/agents"
          testId="total-storage"
          sub={`in the roots of ${formatCountOf(data.total.workspaces, "workspace")} · ${formatCountOf(data.total.roots, "root")}`}
        >
          <Bytes value={data.total.bytes} />
        </Stat>
        {data.home.workspaces > 0 ? (
          <Stat
            label="Whole homes"
            href="#homes"
            testId="whole-homes"
            sub={`du -sx ~ of ${formatCountOf(data.home.workspaces, "workspace")}`}
          >
            <Bytes value={data.home.home} />
          </Stat>
        ) : null}
        <GrowthStat label="Growth 24 h" growth={data.growth.d1} />
        <GrowthStat label="Growth 7 d" growth={data.growth.d7} />
        {/* The picked range's change, from the chart's own first and last points: one baseline day for both. */}
        <RangeChangeStat
          label={`Change over ${data.range.key === "custom" ? "the range" : data.range.key.replace("d", " days")}`}
          series={data.series.points.map((p) => ({ day: p.day, bytes: p.total }))}
          testId="fleet-range-change"
        />
      </div>
      <TotalExplained data={data} />
    </div>
  );
}
