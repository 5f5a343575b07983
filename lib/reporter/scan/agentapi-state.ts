// AgentAPI's state files. With enable_state_persistence the agentapi module exports AGENTAPI_STATE_FILE (by
// default agentapi-state.json in the module's folder, ~/<module_dir_name>/ or ~/.coder-modules/<ns>/<module>/)
// and AGENTAPI_SAVE_STATE=true to the AgentAPI it starts, and always writes its pid to agentapi.pid there. Only
// the running process's environment says whether persistence is on, so the reporter reads those two variables
// of it (its own user's process) and nothing else of its environment.

import fs from "node:fs";
import path from "node:path";
import type { AgentapiState } from "@/lib/report-format/persistence";
import { relToHome } from "./paths";

const STATE_FILE = "agentapi-state.json";
const PID_FILE = "agentapi.pid";

/** The two variables of a running AgentAPI, or null when it is not running or cannot be read. */
function agentapiEnv(pid: number, proc: string): { save: boolean; stateFile?: string } | null {
  try {
    const cmdline = fs.readFileSync(path.join(proc, String(pid), "cmdline"), "utf8");
    if (!cmdline.includes("agentapi")) return null; // the pid was reused by another program
    const vars = fs.readFileSync(path.join(proc, String(pid), "environ"), "utf8").split("\0");
    const value = (name: string) => vars.find((v) => v.startsWith(name + "="))?.slice(name.length + 1);
    return { save: value("AGENTAPI_SAVE_STATE") === "true", stateFile: value("AGENTAPI_STATE_FILE") || undefined };
  } catch {
    return null;
  }
}

function mtimeOf(file: string): string | null {
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch {
    return null;
  }
}

/** Each module folder that AgentAPI ran from (its pid file or state file is there), with its state file. */
export function readAgentapiStates(
  home: string,
  roots: readonly { key: string; kind: string; abs: string }[],
  proc = "/proc",
): AgentapiState[] {
  const out: AgentapiState[] = [];
  for (const r of roots) {
    if (r.kind !== "module" && r.kind !== "legacy") continue;
    let pidText: string | null = null;
    try {
      pidText = fs.readFileSync(path.join(r.abs, PID_FILE), "utf8").trim();
    } catch {
      /* no pid file */
    }
    const defaultState = path.join(r.abs, STATE_FILE);
    if (pidText === null && mtimeOf(defaultState) === null) continue;
    const pid = Number(pidText);
    const env = pidText && Number.isSafeInteger(pid) && pid > 0 ? agentapiEnv(pid, proc) : null;
    const stateFile = env?.stateFile ? path.resolve(home, env.stateFile) : defaultState;
    out.push({
      root: r.key,
      persistence: env === null ? "unknown" : env.save ? "on" : "off",
      stateFile: relToHome(home, stateFile),
      stateMtime: mtimeOf(stateFile),
    });
  }
  return out;
}
