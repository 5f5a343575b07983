import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentRetention as agentRetentionSchema } from "@/lib/report-format/schema";
import { readAgentRetention, type SystemSettings } from "./agent-retention";

// Real files in a temp home (and a temp folder standing in for /etc): valid settings, absent ones,
// malformed JSON and TOML, values the agents would refuse, and files that cannot be read.

let tmp: string;
let home: string;
let managed: string;
let system: SystemSettings;

const put = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const h = (p: string) => path.join(home, p);
const read = (env: Record<string, string> = {}) => {
  const r = readAgentRetention(home, env, system);
  agentRetentionSchema.parse(r); // what the reporter sends is what the server accepts
  return r;
};

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-retention-")));
  home = path.join(tmp, "home");
  managed = path.join(tmp, "etc/claude-code");
  system = {
    claudeManagedDir: managed,
    codexConfig: path.join(tmp, "etc/codex/config.toml"),
    geminiSettings: path.join(tmp, "etc/gemini-cli/settings.json"),
  };
  fs.mkdirSync(home);
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("readAgentRetention", () => {
  it("reports every agent absent in an empty home", () => {
    expect(read()).toEqual({
      "claude-code": { state: "absent" },
      gemini: { state: "absent" },
      codex: { state: "absent" },
      opencode: { state: "absent" },
    });
  });

  it("reads each agent's retention keys and nothing else", () => {
    put(
      h(".claude/settings.json"),
      JSON.stringify({ cleanupPeriodDays: 90, apiKeyHelper: "/bin/secret", env: { A: "b" } }),
    );
    put(
      h(".gemini/settings.json"),
      `{
        // Gemini CLI allows comments
        "general": { "sessionRetention": { "enabled": true, "maxAge": "14d", "maxCount": 50, "minRetention": "2d" } },
        "security": { "auth": { "selectedType": "secret" } },
      }`,
    );
    put(h(".codex/config.toml"), 'model = "o3"\n[history]\npersistence = "save-all"\nmax_bytes = 10485760\n');
    put(h(".config/opencode/opencode.jsonc"), '{ /* no snapshots */ "snapshot": false, "provider": {} }');
    const r = read();
    expect(r).toEqual({
      "claude-code": { state: "set", source: ".claude/settings.json", cleanupPeriodDays: 90 },
      gemini: {
        state: "set",
        source: ".gemini/settings.json",
        enabled: true,
        maxAge: "14d",
        maxCount: 50,
        minRetention: "2d",
      },
      codex: { state: "set", source: ".codex/config.toml", historyMaxBytes: 10485760 },
      opencode: { state: "set", source: ".config/opencode/opencode.jsonc", snapshot: false },
    });
    expect(JSON.stringify(r)).not.toMatch(/secret|o3|save-all|apiKeyHelper/);
  });

  it("reads Codex's key as a dotted key too, and follows CODEX_HOME and CLAUDE_CONFIG_DIR", () => {
    put(path.join(tmp, "codex-home/config.toml"), "history.max_bytes = 2048\n");
    put(path.join(tmp, "claude-config/settings.json"), '{"cleanupPeriodDays": 7}');
    const r = read({ CODEX_HOME: path.join(tmp, "codex-home"), CLAUDE_CONFIG_DIR: path.join(tmp, "claude-config") });
    expect(r.codex).toEqual({ state: "set", source: path.join(tmp, "codex-home/config.toml"), historyMaxBytes: 2048 });
    expect(r["claude-code"]).toMatchObject({ state: "set", cleanupPeriodDays: 7 });
  });

  it("is absent when the file exists without the key (the default applies)", () => {
    put(h(".claude/settings.json"), '{"model": "opus"}');
    put(h(".gemini/settings.json"), '{"general": {"vimMode": true}}');
    put(h(".codex/config.toml"), '[history]\npersistence = "none"\n');
    put(h(".config/opencode/opencode.json"), '{"theme": "dark"}');
    expect(Object.values(read()).map((x) => x.state)).toEqual(["absent", "absent", "absent", "absent"]);
  });

  it("lets Claude Code's managed settings win, the last drop-in by name first", () => {
    put(h(".claude/settings.json"), '{"cleanupPeriodDays": 365}');
    put(path.join(managed, "managed-settings.json"), '{"cleanupPeriodDays": 60}');
    expect(read()["claude-code"]).toEqual({
      state: "set",
      source: path.join(managed, "managed-settings.json"),
      cleanupPeriodDays: 60,
    });
    put(path.join(managed, "managed-settings.d/10-coder.json"), '{"cleanupPeriodDays": 14}');
    put(path.join(managed, "managed-settings.d/20-coder-apikeyhelper.json"), '{"apiKeyHelper": "/x"}');
    put(path.join(managed, "managed-settings.d/notes.txt"), "cleanupPeriodDays 1");
    expect(read()["claude-code"]).toEqual({
      state: "set",
      source: path.join(managed, "managed-settings.d/10-coder.json"),
      cleanupPeriodDays: 14,
    });
  });

  it("lets Gemini CLI's system settings override the user's key by key, and follows GEMINI_CLI_HOME", () => {
    put(
      path.join(tmp, "gem/.gemini/settings.json"),
      '{"general": {"sessionRetention": {"enabled": true, "maxAge": "90d"}}}',
    );
    const env = { GEMINI_CLI_HOME: path.join(tmp, "gem") };
    expect(read(env).gemini).toEqual({
      state: "set",
      source: path.join(tmp, "gem/.gemini/settings.json"),
      enabled: true,
      maxAge: "90d",
    });
    put(system.geminiSettings, '{"general": {"sessionRetention": {"maxAge": "14d", "maxCount": 20}}}');
    expect(read(env).gemini).toEqual({
      state: "set",
      source: system.geminiSettings,
      enabled: true, // the user's, which the system file leaves alone
      maxAge: "14d",
      maxCount: 20,
    });
    put(system.geminiSettings, '{"general": {"sessionRetention": {"maxAge": 14}}}');
    expect(read(env).gemini).toMatchObject({ state: "unreadable", source: system.geminiSettings });
  });

  it("reads Codex's system configuration under the user's", () => {
    put(system.codexConfig, "[history]\nmax_bytes = 4096\n");
    expect(read().codex).toEqual({ state: "set", source: system.codexConfig, historyMaxBytes: 4096 });
    put(h(".codex/config.toml"), 'model = "o3"\n'); // the user's file without the key: the system's applies
    expect(read().codex).toEqual({ state: "set", source: system.codexConfig, historyMaxBytes: 4096 });
    put(h(".codex/config.toml"), "[history]\nmax_bytes = 1024\n");
    expect(read().codex).toEqual({ state: "set", source: ".codex/config.toml", historyMaxBytes: 1024 });
  });

  it("reports malformed JSON and TOML with the position, never the text", () => {
    put(h(".claude/settings.json"), '{\n  "cleanupPeriodDays": 90,\n  "secretKey": "sk-live-1234" oops\n}');
    put(h(".gemini/settings.json"), '{"general": {"sessionRetention": {"maxAge": }}}');
    put(h(".codex/config.toml"), '[history]\nmax_bytes = = 5\napi_key = "sk-live-1234"\n');
    put(h(".config/opencode/opencode.json"), "[1, 2]");
    const r = read();
    expect(r["claude-code"]).toEqual({
      state: "unreadable",
      source: ".claude/settings.json",
      reason: "not valid JSON (at line 3, column 31)",
    });
    expect(r.gemini).toEqual({
      state: "unreadable",
      source: ".gemini/settings.json",
      reason: "not valid JSON (ValueExpected at line 1, column 45)",
    });
    expect(r.codex).toEqual({
      state: "unreadable",
      source: ".codex/config.toml",
      reason: "not valid TOML (line 2, column 13)",
    });
    expect(r.opencode).toEqual({
      state: "unreadable",
      source: ".config/opencode/opencode.json",
      reason: "not a JSON object",
    });
    expect(JSON.stringify(r)).not.toContain("sk-live");
  });

  it("reports values the agents would refuse", () => {
    put(h(".claude/settings.json"), '{"cleanupPeriodDays": "ninety"}');
    put(h(".gemini/settings.json"), '{"general": {"sessionRetention": {"maxAge": "30 days"}}}');
    put(h(".codex/config.toml"), "[history]\nmax_bytes = -1\n");
    put(h(".config/opencode/opencode.json"), '{"snapshot": "off"}');
    expect(Object.values(read()).map((x) => ("reason" in x ? x.reason : x.state))).toEqual([
      "cleanupPeriodDays is not a whole number of days",
      'general.sessionRetention.maxAge is not a duration such as "30d"',
      "history.max_bytes is not a whole number of bytes",
      "snapshot is not true or false",
    ]);
  });

  it("reports an unreadable managed file over the user's setting it may override", () => {
    put(h(".claude/settings.json"), '{"cleanupPeriodDays": 90}');
    fs.mkdirSync(path.join(managed, "managed-settings.json"), { recursive: true }); // a folder where the file goes
    expect(read()["claude-code"]).toEqual({
      state: "unreadable",
      source: path.join(managed, "managed-settings.json"),
      reason: "a folder, not a file",
    });
  });

  it("reports a folder in place of a settings file", () => {
    for (const p of [
      ".claude/settings.json",
      ".gemini/settings.json",
      ".codex/config.toml",
      ".config/opencode/opencode.json",
    ])
      fs.mkdirSync(h(p), { recursive: true });
    expect(Object.values(read()).map((x) => ("reason" in x ? x.reason : x.state))).toEqual(
      Array(4).fill("a folder, not a file"),
    );
  });

  it("reports a file its user may not read (as an unprivileged user, even when the tests run as root)", () => {
    put(h(".claude/settings.json"), '{"cleanupPeriodDays": 90}');
    put(h(".codex/config.toml"), "[history]\nmax_bytes = 1\n");
    fs.chmodSync(h(".claude/settings.json"), 0o000);
    fs.chmodSync(h(".codex/config.toml"), 0o000);
    let r: ReturnType<typeof readAgentRetention>;
    if (process.getuid?.() === 0) {
      // Root reads a mode-000 file: read it as "nobody" in a child process instead.
      for (const d of [tmp, home, h(".claude"), h(".codex")]) fs.chmodSync(d, 0o755);
      const script = `process.setgid(65534); process.setuid(65534);
        const { readAgentRetention } = await import(${JSON.stringify(path.resolve("lib/reporter/scan/agent-retention.ts"))});
        process.stdout.write(JSON.stringify(readAgentRetention(${JSON.stringify(home)}, {}, ${JSON.stringify(system)})));`;
      const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        encoding: "utf8",
        env: { ...process.env, HOME: "/tmp" },
      });
      expect(child.status, child.stderr).toBe(0);
      r = JSON.parse(child.stdout);
    } else {
      r = read();
    }
    expect(r["claude-code"]).toEqual({
      state: "unreadable",
      source: ".claude/settings.json",
      reason: "permission denied",
    });
    expect(r.codex).toEqual({ state: "unreadable", source: ".codex/config.toml", reason: "permission denied" });
  });
});
