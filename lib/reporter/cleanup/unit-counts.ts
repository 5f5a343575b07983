// What the tallies of units (unit-tally.ts, session-parts-tally.ts) add up once a unit is complete: units and
// bytes by age step, the protected ones apart, and for a job every unit.

import type { RecipeUsage } from "@/lib/report-format/schema";
import { joinRel } from "../scan/paths";
import { AGE_STEP_COUNT, ageStep } from "./age-steps";
import type { ProtectList } from "./protect";

/** A unit as the scan saw it: paths relative to the root, allocated bytes, newest mtime (seconds). */
export type FoundUnit = {
  /** The unit's path: the file, the folder, or (file+dir, file+parts) the file. */
  path: string;
  /** What is acted on: the file, the folder, or the file and its other parts. */
  tops: string[];
  bytes: number;
  mtime: number;
};

export class UnitCounts {
  /** [units, bytes] by age step. */
  private readonly byAge: [number, number][] = Array.from({ length: AGE_STEP_COUNT }, () => [0, 0] as [number, number]);
  private protectedUnits = 0;
  private protectedBytes = 0;
  /** Every unit, only when collecting for a job. */
  readonly list: FoundUnit[] | null;

  constructor(
    /** The root's path relative to home (protect globs are relative to home). */
    private readonly rootRel: string,
    private readonly nowSec: number,
    private readonly protect: ProtectList | null,
    collect: boolean,
  ) {
    this.list = collect ? [] : null;
  }

  /** Whether a unit's paths are needed (a job's list, the protect list), not only its bytes and age. */
  get named(): boolean {
    return this.list !== null || (this.protect !== null && !this.protect.empty);
  }

  /** Files the native scanner summed, each a unit of its own, all in one age step. */
  addFiles(step: number, files: number, bytes: number) {
    const b = this.byAge[step];
    b[0] += files;
    b[1] += bytes;
  }

  count(u: FoundUnit) {
    this.list?.push(u);
    if (
      this.protect !== null &&
      !this.protect.empty &&
      this.protect.covers(u.tops.map((t) => joinRel(this.rootRel, t)))
    ) {
      this.protectedUnits++;
      this.protectedBytes += u.bytes;
      return;
    }
    this.addFiles(ageStep(this.nowSec - u.mtime), 1, u.bytes);
  }

  usage(): RecipeUsage {
    const units = this.byAge.reduce((s, b) => s + b[0], 0);
    const bytes = this.byAge.reduce((s, b) => s + b[1], 0);
    let last = this.byAge.length;
    while (last > 0 && this.byAge[last - 1][0] === 0) last--;
    return {
      units,
      bytes,
      protectedUnits: this.protectedUnits,
      protectedBytes: this.protectedBytes,
      byAge: this.byAge.slice(0, last),
    };
  }
}
