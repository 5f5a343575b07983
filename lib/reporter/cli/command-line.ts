// The command line: flags, their values and --help. Values from the environment are merged in configuration.ts.

import type { ScannerMode } from "../scan/scan-roots";
import { REPORTER_VERSION } from "../version";

export const HELP = `coder storage reporter ${REPORTER_VERSION}
Measures the AI agents' storage in this workspace's home folder and sends one report to the storage dashboard.

Usage: node reporter.mjs [options]

Options:
  --server URL          dashboard URL (default: $STORAGE_DASHBOARD_URL)
  --home DIR            home folder to measure (default: $HOME)
  --config FILE         extra roots (default: ~/.coder-modules/coder/storage-reporter/config.json)
  --state-dir DIR       where the token and the spool live (default: ~/.coder-modules/coder/storage-reporter)
  --workspace-id ID     (default: $CODER_WORKSPACE_ID)
  --workspace-name NAME (default: $CODER_WORKSPACE_NAME)
  --owner NAME          (default: $CODER_WORKSPACE_OWNER_NAME)
  --template NAME       (default: $CODER_WORKSPACE_TEMPLATE_NAME)
  --agent-name NAME     (default: $CODER_WORKSPACE_AGENT_NAME)
  --scanner MODE        auto (default), native, find or node
  --splay SECONDS       wait a random 0..SECONDS before contacting the server (spreads a fleet's cron runs)
  --dry-run             print the report as JSON on stdout, send nothing
  --verbose             more log lines on stderr
  --help, --version

Environment: STORAGE_DASHBOARD_URL, STORAGE_ENROLLMENT_KEY (needed once, to enroll), CODER_WORKSPACE_ID,
CODER_WORKSPACE_NAME, CODER_WORKSPACE_OWNER_NAME, CODER_WORKSPACE_TEMPLATE_NAME, CODER_WORKSPACE_AGENT_NAME,
CODER_WORKSPACE_OWNER_EMAIL (optional: where the owner's notices go when Coder has no address), CLAUDE_CONFIG_DIR, CODEX_HOME, CODER_SCRIPT_DATA_DIR.

Exit codes:
  0   report delivered (or --dry-run, --help, --version; or another run is in progress)
  1   unexpected error
  2   usage or configuration error (a missing variable is named)
  3   authentication: enrollment key rejected, or the workspace token is no longer valid
      (an admin must reset the workspace in the dashboard); the report is kept in the spool
  4   the server rejected the report (4xx): it was dropped
  75  the server could not be reached (or answered 5xx/429): the report was spooled for the next run
`;

export type Options = {
  server?: string;
  home?: string;
  config?: string;
  stateDir?: string;
  id?: string;
  name?: string;
  owner?: string;
  template?: string;
  agentName?: string;
  scanner: ScannerMode;
  splay: number;
  dryRun: boolean;
  verbose: boolean;
  help: boolean;
  version: boolean;
};

/** A usage or configuration problem: logged in one line, exit 2. */
export class UsageError extends Error {}

const VALUE_FLAGS: Record<string, keyof Options> = {
  "--server": "server",
  "--home": "home",
  "--config": "config",
  "--state-dir": "stateDir",
  "--workspace-id": "id",
  "--workspace-name": "name",
  "--owner": "owner",
  "--template": "template",
  "--agent-name": "agentName",
  "--scanner": "scanner",
  "--splay": "splay",
};

export function parseArgs(argv: string[]): Options {
  const o: Options = { scanner: "auto", splay: 0, dryRun: false, verbose: false, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let value: string | undefined;
    const eq = a.indexOf("=");
    if (a.startsWith("--") && eq > 0) {
      value = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    if (a === "--dry-run") o.dryRun = true;
    else if (a === "--verbose" || a === "-v") o.verbose = true;
    else if (a === "--help" || a === "-h") o.help = true;
    else if (a === "--version" || a === "-V") o.version = true;
    else if (a in VALUE_FLAGS) {
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new UsageError(`${a} needs a value`);
      }
      const key = VALUE_FLAGS[a];
      if (key === "scanner") {
        if (!["auto", "native", "find", "node"].includes(value))
          throw new UsageError(`--scanner must be auto, native, find or node`);
        o.scanner = value as ScannerMode;
      } else if (key === "splay") {
        const n = Number(value);
        if (!Number.isFinite(n) || n < 0) throw new UsageError(`--splay needs a number of seconds`);
        o.splay = n;
      } else (o as Record<string, unknown>)[key] = value;
    } else throw new UsageError(`unknown option ${a} (see --help)`);
  }
  return o;
}
