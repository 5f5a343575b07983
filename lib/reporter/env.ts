// The environment a run reads (the process's, or a test's own): the workspace's identity and the dashboard's
// address, the agents' folders, the proxy. Every part of the reporter reads it, so its type lives apart.
export type Env = Record<string, string | undefined>;
