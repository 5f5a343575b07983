import { fullVolumeRule } from "./full-volume";

/** A volume whose df -i IUse% is at or above the threshold: no new file can be created once inodes run out. */
export const inodesFull = fullVolumeRule({
  id: "inodes-full",
  title: "Inodes nearly exhausted",
  description:
    "A workspace's home volume has used 95% or more of its inodes (df -i): agents that write millions of small files fill a disk this way too.",
  column: "volume_inodes_used_pct",
  fields: { usedPercent: { label: "IUse% (df -i) at or above", unit: "%" } },
  describe: (f) => ({
    message: `The home volume has used ${f.value}% of its inodes (df -i; alert at ${f.threshold}%): new files fail even with space left.`,
    action:
      "Delete folders of many small files first (agent session folders, caches, node_modules in old checkouts); `find ~ -xdev -type f | cut -d/ -f1-5 | sort | uniq -c | sort -n` shows where they are.",
  }),
});
