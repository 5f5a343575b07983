// The run's configuration from flags and environment (flags win): home folder, workspace identity, dashboard,
// token and extra roots. Checked before any scanning, so a missing variable costs no scan; the first problem
// is thrown as a UsageError naming it.

import fs from "node:fs";
import path from "node:path";
import type { WorkspaceIdentity } from "@/lib/report-format/schema";
import type { Env } from "../env";
import { readConfig, type ReporterConfig } from "../scan/roots";
import { readToken, stateDir } from "../state";
import { UsageError, type Options } from "./command-line";

export type Configuration = {
  /** Real path of the home folder. */
  home: string;
  identity: WorkspaceIdentity;
  /** Dashboard URL without trailing slashes; "" in a dry run without one. */
  server: string;
  /** Where the token, the spool and the lock live. */
  state: string;
  /** The workspace token; null before enrollment (and always in a dry run). */
  token: string | null;
  enrollmentKey: string | null;
  config: ReporterConfig | null;
};

const IDENTITY_SOURCES = [
  { field: "id", option: "id", flag: "--workspace-id", variable: "CODER_WORKSPACE_ID", max: 100 },
  { field: "name", option: "name", flag: "--workspace-name", variable: "CODER_WORKSPACE_NAME", max: 200 },
  { field: "owner", option: "owner", flag: "--owner", variable: "CODER_WORKSPACE_OWNER_NAME", max: 200 },
] as const;

/** A dry run needs neither server nor identity: placeholders stand in. */
const DRY_RUN_IDENTITY: WorkspaceIdentity = { id: "dry-run", name: "dry-run", owner: "dry-run" };

export function configure(opts: Options, env: Env): Configuration {
  const dry = opts.dryRun;
  const home = homeFolder(opts.home ?? env.HOME);
  const identity = workspaceIdentity(opts, env, dry);
  const server = (opts.server ?? env.STORAGE_DASHBOARD_URL ?? "").replace(/\/+$/, "");
  const state = opts.stateDir ? path.resolve(opts.stateDir) : stateDir(home);
  const enrollmentKey = env.STORAGE_ENROLLMENT_KEY ?? null;
  let token: string | null = null;
  if (!dry) {
    if (!server) throw new UsageError("STORAGE_DASHBOARD_URL is not set (or pass --server URL)");
    if (!/^https?:\/\//.test(server))
      throw new UsageError(`the dashboard URL must start with http:// or https:// (got ${server})`);
    token = readToken(state);
    if (!token && !enrollmentKey) {
      throw new UsageError(
        "STORAGE_ENROLLMENT_KEY is not set and this workspace has no token yet (needed once, to enroll)",
      );
    }
  }
  return { home, identity, server, state, token, enrollmentKey, config: extraRoots(opts.config, state) };
}

function homeFolder(given: string | undefined): string {
  if (!given) throw new UsageError("HOME is not set (or pass --home DIR)");
  try {
    return fs.realpathSync(path.resolve(given));
  } catch {
    throw new UsageError(`home folder ${given} does not exist`);
  }
}

function workspaceIdentity(opts: Options, env: Env, dry: boolean): WorkspaceIdentity {
  const identity: WorkspaceIdentity = { ...DRY_RUN_IDENTITY };
  for (const s of IDENTITY_SOURCES) {
    const value = opts[s.option] ?? env[s.variable];
    if (value) identity[s.field] = value.slice(0, s.max);
    else if (!dry) throw new UsageError(`${s.variable} is not set (or pass ${s.flag})`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(identity.id))
    throw new UsageError("CODER_WORKSPACE_ID has characters other than letters, digits and . _ -");
  const template = opts.template ?? env.CODER_WORKSPACE_TEMPLATE_NAME;
  if (template) identity.template = template.slice(0, 200);
  const agentName = opts.agentName ?? env.CODER_WORKSPACE_AGENT_NAME;
  if (agentName) identity.agent = agentName.slice(0, 200);
  // Sent as it is: the dashboard drops an address that is not one, and keeps the rest of the report.
  const ownerEmail = env.CODER_WORKSPACE_OWNER_EMAIL?.trim();
  if (ownerEmail) identity.ownerEmail = ownerEmail;
  return identity;
}

/** The configuration file's extra roots. The default file may be absent; a file named with --config must exist. */
function extraRoots(file: string | undefined, state: string): ReporterConfig | null {
  let config: ReporterConfig | null;
  try {
    config = readConfig(file ?? path.join(state, "config.json"));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (file && config === null) throw new UsageError(`config file ${file} does not exist`);
  return config;
}
