import { FREE_SPACE_NOW } from "../wording";
import { fullVolumeRule } from "./full-volume";

/** A volume whose df Use% is at or above the threshold. */
export const volumeFull = fullVolumeRule({
  id: "volume-full",
  title: "Volume full",
  description:
    "A workspace's home volume is at or above 95% used, as df shows Use% (Coder's own volume alert is a percentage too).",
  column: "volume_used_pct",
  fields: { usedPercent: { label: "Use% (df) at or above", unit: "%" } },
  describe: (f) => ({
    message: `The home volume is ${f.value}% used as df shows it (alert at ${f.threshold}%).`,
    action: FREE_SPACE_NOW,
  }),
});
