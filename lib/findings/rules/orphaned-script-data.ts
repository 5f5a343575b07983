import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { bytes, defineRule, num, PAST_THRESHOLD } from "../rule";
import { where } from "../wording";

/** An orphaned coder-script-data folder larger than this (0: any). */
export const orphanedScriptData = defineRule({
  id: "orphaned-script-data",
  title: "Orphaned script data",
  description: "A coder-script-data/<uuid>/ folder from an earlier start that nothing uses any more.",
  enabled: true,
  severity: "info",
  params: z.object({ minBytes: bytes }).strict(),
  defaults: { minBytes: 0 },
  unit: "bytes",
  scope: "root",
  urgency: PAST_THRESHOLD,
  rows: (p, { ws }) => {
    const th = num(p.minBytes);
    return sql`select r.workspace_id, r.root_key, r.agent, r.path, r.bytes::float8 as value, ${th} as threshold
      from root_latest r where r.kind = 'script-data' and r.orphaned and r.bytes::float8 >= ${th} ${ws}`;
  },
  fields: { minBytes: { label: "Folders of at least", unit: "MiB", hint: "0: any size" } },
  items: () => "orphaned script-data folders",
  describe: (f) => ({
    message: `Orphaned script data ${f.path ?? where(f)} holds ${formatBytes(f.value)}.`,
    action:
      "Delete the orphaned coder-script-data/<uuid>/ folder: each workspace start creates a new one and nothing reads the old ones.",
  }),
});
