import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRule, FULLNESS, num, percent } from "../rule";

/** A volume whose df -i IUse% is at or above this: no new file can be created once inodes run out. */
export const inodesFull = defineRule({
  id: "inodes-full",
  title: "Inodes nearly exhausted",
  description:
    "A workspace's home volume has used 95% or more of its inodes (df -i): agents that write millions of small files fill a disk this way too.",
  enabled: true,
  severity: "critical",
  params: z.object({ usedPercent: percent }).strict(),
  defaults: { usedPercent: 95 },
  unit: "percent",
  scope: "workspace",
  urgency: FULLNESS,
  rows: (p, { ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent, null::text as path,
      w.volume_inodes_used_pct::float8 as value, ${num(p.usedPercent)} as threshold
    from workspaces w where w.volume_inodes_used_pct >= ${p.usedPercent} ${ws}`,
  describe: (f) => ({
    message: `The home volume has used ${f.value}% of its inodes (df -i; alert at ${f.threshold}%): new files fail even with space left.`,
    action:
      "Delete folders of many small files first (agent session folders, caches, node_modules in old checkouts); `find ~ -xdev -type f | cut -d/ -f1-5 | sort | uniq -c | sort -n` shows where they are.",
  }),
});
