import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RECIPES } from "@/lib/catalog/recipes";
import { agentapiStartedSince, recipeBlocked, runningPrograms, workspaceStartSec } from "./recipe-guards";

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "recipe-guards-")));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const put = (rel: string, mtimeSec: number) => {
  const f = path.join(tmp, rel);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, "x");
  fs.utimesSync(f, mtimeSec, mtimeSec);
};

describe("recipe guards", () => {
  it("names the running programs by comm and by argv[0]", async () => {
    const prog = path.join(tmp, "opencode"); // as OpenCode's binary is named
    fs.copyFileSync("/bin/sleep", prog);
    fs.chmodSync(prog, 0o755);
    const child = spawn(prog, ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(runningPrograms().has("opencode")).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
  });

  it("dates the workspace's start from process 1's start after boot", () => {
    put("proc/stat", 0);
    fs.writeFileSync(path.join(tmp, "proc/stat"), "cpu  1 2 3\nbtime 1790000000\nprocesses 9\n");
    put("proc/1/stat", 0);
    // comm may hold spaces and parentheses; starttime is the 22nd field: 123456 ticks = 1234.56 s after boot
    const fields = ["S", ...Array.from({ length: 18 }, (_, i) => String(i)), "123456", "0"];
    fs.writeFileSync(path.join(tmp, "proc/1/stat"), `1 (my (init) x) ${fields.join(" ")}\n`);
    expect(workspaceStartSec(path.join(tmp, "proc"))).toBeCloseTo(1790001234.56, 2);
    expect(workspaceStartSec(path.join(tmp, "nowhere"))).toBeNull();
  });

  it("finds module folders, current and legacy, that started AgentAPI since a moment", () => {
    const start = 1_790_000_000;
    put(".coder-modules/coder/claude-code/agentapi-start.log", start + 10);
    put(".coder-modules/coder/codex/agentapi-start.log", start - 10);
    put(".goose-module/agentapi-start.log", start + 5);
    put(".codex-module/agentapi.pid", start + 5);
    expect(agentapiStartedSince(tmp, start).sort()).toEqual([".coder-modules/coder/claude-code", ".goose-module"]);
    const leftovers = RECIPES.find((r) => r.id === "agentapi-leftovers");
    expect(recipeBlocked(leftovers, { home: tmp, running: new Set(), startSec: start })).toMatch(/started AgentAPI/);
    expect(recipeBlocked(leftovers, { home: tmp, running: new Set(), startSec: start + 60 })).toBeNull();
    expect(recipeBlocked(leftovers, { home: tmp, running: new Set(), startSec: null })).toMatch(/cannot tell/);
    // other recipes are not held back by AgentAPI
    const logs = RECIPES.find((r) => r.id === "module-logs");
    expect(recipeBlocked(logs, { home: tmp, running: new Set(["agentapi"]), startSec: start })).toBeNull();
  });
});
