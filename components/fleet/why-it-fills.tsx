import { Fragment, type ReactNode } from "react";
import type { AtRiskVolume } from "@/lib/db/queries/volumes-at-risk";
import { formatCount } from "@/lib/format/numbers";
import { HOME_KIND_LABELS } from "@/lib/shaping/home-breakdown";
import { Bytes } from "@/components/ui/bytes";

/** Used growth outside the roots below this is the file system's own churn, not worth naming. */
const OUTSIDE_NOTED = 1024 ** 2;

function Part({ label, children }: { label: string; children: ReactNode[] }) {
  return (
    <span className="why-part">
      <span className="muted">{label}:</span>{" "}
      {/* the comma ends a line, never starts the next one: the line breaks at the space after it */}
      {children.map((c, i) => (
        <Fragment key={i}>
          {i ? " " : ""}
          <span className="nowrap">
            {c}
            {i < children.length - 1 ? "," : ""}
          </span>
        </Fragment>
      ))}
    </span>
  );
}

/** What fills a full volume: its largest roots and the home's largest folders, as the workspace page lists them. */
function Holds({ why }: { why: AtRiskVolume["why"] }) {
  return (
    <>
      {why.largestRoots.length ? (
        <Part label="largest roots">
          {why.largestRoots.map((r) => (
            <span key={r.rootKey}>
              <code>{r.rootKey}</code> <Bytes value={r.bytes} />
            </span>
          ))}
        </Part>
      ) : null}
      {why.homeFolders.length ? (
        <Part label="largest folders">
          {why.homeFolders.map((f) => (
            <span key={f.path} title={f.kind ? HOME_KIND_LABELS[f.kind] : undefined}>
              <code>~/{f.path}</code> <Bytes value={f.bytes} />
            </span>
          ))}
        </Part>
      ) : null}
    </>
  );
}

/** What a volume out of inodes holds: the roots with most files and folders (each takes an inode). */
function MostFiles({ why }: { why: AtRiskVolume["why"] }) {
  if (!why.mostInodesRoots.length) return <span className="muted">no root measured</span>;
  return (
    <Part label="most files">
      {why.mostInodesRoots.map((r) => (
        <span key={r.rootKey}>
          <code>{r.rootKey}</code> {formatCount(r.inodes)}
        </span>
      ))}
    </Part>
  );
}

/** What grew over 7 days: the roots, and df's Used beyond them (files outside every measured root). */
function Grew({ why, full }: { why: AtRiskVolume["why"]; full: boolean }) {
  const outside = why.outsideGrowthBytes !== null && why.outsideGrowthBytes >= OUTSIDE_NOTED;
  if (!why.growingRoots.length && !outside)
    return full ? null : <span className="muted">nothing measured grew in 7 days</span>;
  return (
    <Part label="grew in 7 days">
      {[
        ...why.growingRoots.map((r) => (
          <span key={r.rootKey}>
            <code>{r.rootKey}</code> <Bytes value={r.growthBytes} delta />
          </span>
        )),
        ...(outside
          ? [
              <span key="outside" data-testid="outside-growth">
                outside the measured roots <Bytes value={why.outsideGrowthBytes} delta />
              </span>,
            ]
          : []),
      ]}
    </Part>
  );
}

/**
 * Why a volume at risk fills: a full one by what it holds (its files, when out of inodes), whatever its growth;
 * one filling by what grew, inside the roots or outside them.
 */
export function WhyItFills({ v }: { v: AtRiskVolume }) {
  return (
    <span className="small why" data-testid="why-it-fills">
      {v.fullBy === "inodes" ? <MostFiles why={v.why} /> : v.fullBy === "space" ? <Holds why={v.why} /> : null}
      <Grew why={v.why} full={v.fullBy !== null} />
    </span>
  );
}
