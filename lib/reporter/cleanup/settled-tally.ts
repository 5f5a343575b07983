// What the two kinds of target tally share (unit-tally.ts, session-parts-tally.ts): entries are summed into the
// units (or parts) holding them while the walk goes on, and the units are counted once it is over, since a unit's
// entries may arrive in any order; then they are read as the report's usage or as a job's list.

import type { RecipeUsage } from "@/lib/report-format/schema";
import type { ProtectList } from "./protect";
import type { Holder } from "./target-folder";
import { UnitCounts, type FoundUnit } from "./unit-counts";

export abstract class SettledTally {
  protected readonly counts: UnitCounts;
  private settled = false;

  constructor(
    /** The root's path relative to home (protect globs are relative to home). */
    rootRel: string,
    nowSec: number,
    protect: ProtectList | null,
    collect: boolean,
  ) {
    this.counts = new UnitCounts(rootRel, nowSec, protect, collect);
  }

  /** Counts into `counts` the units summed during the walk; runs once, after it. */
  protected abstract countSummedUnits(): void;

  /** The report's usage: the units summed during the walk are complete only now. */
  usage(): RecipeUsage {
    this.settle();
    return this.counts.usage();
  }

  /** Every unit (protected ones too), for a job's plan. Needs `collect`. */
  units(): FoundUnit[] {
    this.settle();
    return this.counts.list ?? [];
  }

  private settle() {
    if (this.settled) return;
    this.settled = true;
    this.countSummedUnits();
  }
}

/** Adds an entry's bytes and time to the unit or part holding it (none: not counted). */
export function addTo(h: Holder | null, bytes: number, mtime: number) {
  if (h === null) return;
  h.bytes += bytes;
  if (mtime > h.mtime) h.mtime = mtime;
}
