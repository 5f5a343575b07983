// Where the workspace sync reads Coder: CODER_URL (the deployment's access URL) and CODER_SESSION_TOKEN (a token
// that can read every workspace), every CODER_SYNC_INTERVAL seconds (lib/config checks them). No database or
// Next.js code: the scheduler and the route read it alike.

import { config } from "@/lib/config";

export type CoderSyncConfig = {
  /** The access URL, without a trailing slash. */
  url: string;
  token: string;
  intervalMs: number;
};

/** The sync's configuration, or null when CODER_URL or CODER_SESSION_TOKEN is unset (no sync then). */
export function coderSyncConfig(): CoderSyncConfig | null {
  const { url, sessionToken: token, syncIntervalMs: intervalMs } = config().coder;
  return url && token ? { url, token, intervalMs } : null;
}

/** A workspace's page in Coder: `<access URL>/@<owner>/<name>`. */
export function coderWorkspaceHref(base: string, owner: string, name: string): string {
  return `${base}/@${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}
