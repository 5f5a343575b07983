// How the cleanup pages word their figures where a plain count would mislead.
import { formatCountOf } from "@/lib/format/numbers";

/**
 * A preview's units beside its bytes. A preview interpolates inside the report's age steps (and a cap takes
 * part of a step), so a workspace whose old units are few can get a fraction of one: its count rounds to 0
 * while its bytes do not. That is part of one unit (the reporter acts on it whole or not at all), not none.
 */
export function previewUnitsText(units: number, bytes: number): string {
  return units === 0 && bytes > 0 ? "under 1 unit" : formatCountOf(units, "unit");
}

/** A policy's state as the policies table and its CSV say it. */
export function policyStateText(p: { dryRun: boolean; held: unknown; confirmed: unknown }): string {
  return p.dryRun ? "dry run" : p.held ? "held" : p.confirmed ? "confirmed" : "awaiting confirmation (dry runs)";
}
