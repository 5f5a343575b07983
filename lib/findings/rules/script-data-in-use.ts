import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { defineRule } from "../rule";

/**
 * The current CODER_SCRIPT_DATA_DIR holds files: the Coder agent gives each script a new coder-script-data/<uuid>/
 * folder at every start, so whatever a module keeps there is gone (orphaned) at the next one.
 */
export const scriptDataInUse = defineRule({
  id: "script-data-in-use",
  title: "Module data in a per-start folder",
  description:
    "A module keeps files in the current CODER_SCRIPT_DATA_DIR, which is a new folder at every workspace start: what it keeps there is lost at each start.",
  enabled: true,
  severity: "warning",
  params: z.object({}).strict(),
  defaults: {},
  unit: "bytes",
  scope: "root",
  urgency: sql`value`,
  rows: (_p, { ws }) => sql`select r.workspace_id, r.root_key, r.agent, r.path, r.bytes::float8 as value,
      0::float8 as threshold
    from root_latest r where r.kind = 'script-data' and not r.orphaned and r.files > 0 ${ws}`,
  fields: {},
  describe: (f) => ({
    message: `The current script-data folder ${f.path ?? ""} holds ${formatBytes(f.value)}: it is replaced by a new, empty folder at the next start.`,
    action:
      "Have the module keep its data in $HOME/.coder-modules/<namespace>/<module>/ (the registry's module data layout) instead of CODER_SCRIPT_DATA_DIR.",
  }),
});
