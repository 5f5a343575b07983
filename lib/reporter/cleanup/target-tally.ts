// The tally that counts a target's units: a unit spread over several folders of a project folder has its own.

import type { ProtectList } from "./protect";
import { SessionPartsTally } from "./session-parts-tally";
import type { Target } from "./target";
import { UnitTally } from "./unit-tally";

export type TargetTally = UnitTally | SessionPartsTally;

export function targetTally(
  t: Target,
  rootRel: string,
  nowSec: number,
  protect: ProtectList | null,
  collect: boolean,
): TargetTally {
  return t.unit === "file+parts"
    ? new SessionPartsTally(t, rootRel, nowSec, protect, collect)
    : new UnitTally(t, rootRel, nowSec, protect, collect);
}
