// Where the workspace sync reads Coder: CODER_URL (the deployment's access URL) and CODER_SESSION_TOKEN (a token
// that can read every workspace), every CODER_SYNC_INTERVAL seconds. No database or Next.js code: the scheduler,
// the route and the pages' links read it alike.

export type CoderSyncConfig = {
  /** The access URL, without a trailing slash. */
  url: string;
  token: string;
  intervalMs: number;
};

const DEFAULT_INTERVAL_S = 300;

/** The access URL alone (also the workspaces' links into Coder), or null when CODER_URL is unset. */
export function coderUrl(env: Record<string, string | undefined> = process.env): string | null {
  const raw = env.CODER_URL?.trim();
  return raw ? raw.replace(/\/+$/, "") : null;
}

/** The sync's configuration, or null when CODER_URL or CODER_SESSION_TOKEN is unset (no sync then). */
export function coderSyncConfig(env: Record<string, string | undefined> = process.env): CoderSyncConfig | null {
  const url = coderUrl(env);
  const token = env.CODER_SESSION_TOKEN?.trim();
  if (!url || !token) return null;
  const seconds = Number(env.CODER_SYNC_INTERVAL ?? DEFAULT_INTERVAL_S);
  const ok = Number.isInteger(seconds) && seconds >= 10 && seconds <= 86_400;
  return { url, token, intervalMs: (ok ? seconds : DEFAULT_INTERVAL_S) * 1000 };
}

/** A workspace's page in Coder: `<access URL>/@<owner>/<name>`. */
export function coderWorkspaceHref(base: string, owner: string, name: string): string {
  return `${base}/@${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}
