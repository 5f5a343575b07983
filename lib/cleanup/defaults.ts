// The defaults and bounds of a cleanup run's settings, written once: the protocol's schema fills its defaults
// from them and the forms start from (and clamp to) the same figures, so a form cannot offer what the server
// would refuse or fill in differently. Plain constants: the browser imports them.
import { MIN_AGE_HOURS_DEFAULT, MIN_AGE_HOURS_FLOOR } from "@/lib/catalog/recipes";

/** Days a trashed unit stays restorable before the reporter empties it. */
export const TRASH_DAYS = { default: 7, min: 1, max: 90 } as const;

/**
 * Hours since a unit's newest modification before it may be acted on. The default and the floor are the
 * catalog's, which the reporter bundles and enforces itself.
 */
export const MIN_AGE_HOURS = { default: MIN_AGE_HOURS_DEFAULT, min: MIN_AGE_HOURS_FLOOR, max: 24 * 365 } as const;

/** An integer clamped into a setting's bounds; anything that is not a number becomes the lower bound. */
export function clampTo(bounds: { min: number; max: number }, value: number): number {
  return Number.isFinite(value) ? Math.min(bounds.max, Math.max(bounds.min, Math.round(value))) : bounds.min;
}
