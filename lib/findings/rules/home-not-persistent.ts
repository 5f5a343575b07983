import { sql } from "drizzle-orm";
import { z } from "zod";
import { formatBytes } from "@/lib/format/bytes";
import { defineRule } from "../rule";

/**
 * A workspace whose home is on storage lost at every stop (the container's overlay layer, tmpfs, an emptyDir):
 * every agent's sessions go with it. `path` is the workspace's template, where the fix is made once for all its
 * workspaces; `value` the bytes its roots hold.
 */
export const homeNotPersistent = defineRule({
  id: "home-not-persistent",
  title: "Home lost at restart",
  description:
    "The workspace's home is not on a persistent volume (the container's overlay layer, tmpfs, ramfs, a Kubernetes emptyDir or a Docker anonymous volume): every agent's sessions are lost at each stop and Coder Tasks cannot resume.",
  enabled: true,
  severity: "critical",
  params: z.object({}).strict(),
  defaults: {},
  unit: "bytes",
  scope: "workspace",
  urgency: sql`value`,
  rows: (_p, { ws }) => sql`select w.id as workspace_id, null::text as root_key, null::text as agent,
      w.template as path, w.total_bytes::float8 as value, 0::float8 as threshold
    from workspaces w where w.persistence -> 'home' ->> 'verdict' = 'not-persistent' ${ws}`,
  fields: {},
  describe: (f) => ({
    message: `The home is not on a persistent volume: its agents' data (${formatBytes(f.value)}) and sessions are lost at every stop.`,
    action: `Mount a persistent volume at the home in template ${f.path ?? "(unknown)"} (a docker_volume, or a PersistentVolumeClaim as Coder's kubernetes template does): it fixes every workspace of the template.`,
  }),
});
