// AgentAPI's state files in both module layouts, and whether persistence is on, read from a running process
// named agentapi with the environment the agentapi module's main.sh exports.

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAgentapiStates } from "./agentapi-state";

describe("AgentAPI state files", () => {
  let home: string;
  const running: ChildProcess[] = [];
  /** A process whose command line names agentapi, as the module starts it, with `env`. */
  const agentapi = (env: Record<string, string>) => {
    const bin = path.join(home, "bin", "agentapi");
    if (!fs.existsSync(bin)) {
      fs.mkdirSync(path.dirname(bin), { recursive: true });
      fs.copyFileSync(fs.realpathSync("/bin/sleep"), bin);
      fs.chmodSync(bin, 0o755);
    }
    const p = spawn(bin, ["600"], { env: env as NodeJS.ProcessEnv, stdio: "ignore" });
    running.push(p);
    return p.pid!;
  };
  beforeAll(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agentapi-state-")));
  });
  afterAll(() => {
    for (const p of running) p.kill();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it("reads persistence from the running AgentAPI and finds its state file in either layout", () => {
    const current = path.join(home, ".coder-modules/coder/claude-code");
    const legacy = path.join(home, ".codex-module");
    const stopped = path.join(home, ".goose-module");
    const none = path.join(home, ".coder-modules/coder/code-server");
    for (const d of [current, legacy, stopped, none]) fs.mkdirSync(d, { recursive: true });
    const state = path.join(current, "agentapi-state.json");
    fs.writeFileSync(state, "{}");
    const when = new Date("2026-11-01T10:00:00Z");
    fs.utimesSync(state, when, when);
    fs.writeFileSync(
      path.join(current, "agentapi.pid"),
      String(agentapi({ AGENTAPI_SAVE_STATE: "true", AGENTAPI_STATE_FILE: state, SECRET: "never read" })),
    );
    fs.writeFileSync(path.join(legacy, "agentapi.pid"), `${agentapi({ AGENTAPI_PID_FILE: "x" })}\n`);
    fs.writeFileSync(path.join(stopped, "agentapi.pid"), "999999999");
    const roots = [
      { key: "coder/claude-code", kind: "module", abs: current },
      { key: "legacy:codex-module", kind: "legacy", abs: legacy },
      { key: "legacy:goose-module", kind: "legacy", abs: stopped },
      { key: "coder/code-server", kind: "module", abs: none },
      { key: "codex:data", kind: "tool", abs: legacy },
    ];
    const out = readAgentapiStates(home, roots);
    expect(out).toEqual([
      {
        root: "coder/claude-code",
        persistence: "on",
        stateFile: ".coder-modules/coder/claude-code/agentapi-state.json",
        stateMtime: when.toISOString(),
      },
      {
        root: "legacy:codex-module",
        persistence: "off",
        stateFile: ".codex-module/agentapi-state.json",
        stateMtime: null,
      },
      {
        root: "legacy:goose-module",
        persistence: "unknown",
        stateFile: ".goose-module/agentapi-state.json",
        stateMtime: null,
      },
    ]);
    expect(JSON.stringify(out)).not.toContain("never read");
  });
});
