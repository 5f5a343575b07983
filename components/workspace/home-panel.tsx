import type { ColumnDef } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { Bytes } from "@/components/ui/bytes";
import { column, DataTable } from "@/components/ui/data-table";
import { Panel } from "@/components/ui/panel";
import { formatBytes } from "@/lib/format/bytes";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import type { VolumeSummary } from "@/lib/format/volume";
import type { HomeFolder, HomeUsage } from "@/lib/report-format/home";
import { HOME_KIND_LABELS, homeSplit, type HomeLine } from "@/lib/shaping/home-breakdown";

const share = (bytes: number, of: number) => (
  <span className="bar" style={{ display: "block" }} title={formatPercent(of > 0 ? bytes / of : 0)}>
    <span style={{ width: `${of > 0 ? Math.min(100, (bytes / of) * 100) : 0}%` }} />
  </span>
);

function lineColumns(of: number): ColumnDef<HomeLine>[] {
  return [
    column("what", "What", (l) => (
      <>
        {l.label} {l.note ? <span className="muted small">({l.note})</span> : null}
      </>
    )),
    column("bytes", "Size", (l) => <Bytes value={l.bytes} />, { className: "num" }),
    column("share", "Share", (l) => share(l.bytes, of), { className: "phone-hidden" }),
  ];
}

function folderColumns(of: number): ColumnDef<HomeFolder>[] {
  return [
    column("path", "Folder", (f) => `~/${f.path}`, { cellClassName: "mono" }),
    column("kind", "Kind", (f) => (f.kind ? <span className="badge info">{HOME_KIND_LABELS[f.kind]}</span> : "")),
    column("bytes", "Size (du -s)", (f) => <Bytes value={f.bytes} />, { className: "num" }),
    column("share", "Of the home", (f) => share(f.bytes, of), { className: "phone-hidden" }),
  ];
}

/**
 * Where the volume's Used bytes go: the newest report's whole home (du -sx ~, in the walk that measures the
 * roots) split into agents, modules, the rest by kind, and what lies outside the home or no walk can see.
 */
export function HomePanel({
  home,
  volume,
  exports,
}: {
  home: HomeUsage | null;
  volume: VolumeSummary | null;
  /** The CSV links of its two tables: the lines, then the largest folders. */
  exports: ReactNode;
}) {
  if (!home) return null;
  const split = homeSplit(volume, home);
  const total = split.used ?? home.bytes;
  return (
    <Panel title={`Where the ${formatBytes(total)} go`} id="home" actions={exports}>
      <p className="muted small">
        The home holds <Bytes value={home.bytes} /> as <code>du -sx ~</code> counts it (one device, each hard link once)
        {volume ? (
          <>
            {" "}
            of the volume&apos;s Used <Bytes value={volume.usedBytes} />
          </>
        ) : null}
        .
        {split.reserved ? (
          <>
            {" "}
            Besides, <Bytes value={split.reserved} /> is reserved for root: in neither Used nor Avail.
          </>
        ) : null}
      </p>
      <DataTable data={split.lines} columns={lineColumns(total)} rowId={(l) => l.key} testId="home-split" stacked={2} />
      {home.nestedCopies?.map((c) => (
        <p key={c.path} className="small" data-testid="home-nested-copy">
          <span className="badge critical">nested copy</span> <code>~/{c.path}</code> holds a copy of its own folder:{" "}
          <Bytes value={c.bytes} />
        </p>
      ))}
      {home.largest.length ? (
        <DataTable
          data={home.largest}
          columns={folderColumns(home.bytes)}
          rowId={(f) => f.path}
          testId="home-largest"
          stacked={2}
          wrapStyle={{ marginTop: 12 }}
        />
      ) : null}
      {home.mounts?.length ? (
        <p className="muted small" data-testid="home-mounts">
          Mounted inside the home, not in the figures above:{" "}
          {home.mounts
            .map((m) => `~/${m.path} (${m.fsType}, ${formatBytes(m.usedBytes)} used of ${formatBytes(m.totalBytes)})`)
            .join("; ")}
          .
        </p>
      ) : null}
      {home.unreadable ? (
        <p className="muted small">
          {formatCount(home.unreadable)} folder(s) of the home could not be read by the reporter: their contents are in
          no figure (the report&apos;s errors name them).
        </p>
      ) : null}
    </Panel>
  );
}
