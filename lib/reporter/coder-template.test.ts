import { describe, expect, it } from "vitest";
import { REPORTER_MODULE, coderModuleBlock, coderTemplateSnippet } from "./coder-template";

describe("coderModuleBlock", () => {
  const m = coderModuleBlock("https://storage.example.com/");
  it("is the registry module with its version, on coder_agent.main, with the key from a sensitive variable", () => {
    expect(m).toContain('module "storage_reporter" {');
    expect(m).toContain(`source         = "${REPORTER_MODULE.source}"`);
    expect(m).toMatch(/^ {2}version {8}= "\d+\.\d+\.\d+"$/m);
    expect(m).toContain("agent_id       = coder_agent.main.id");
    expect(m).toContain('dashboard_url  = "https://storage.example.com"');
    expect(m).toContain("enrollment_key = var.storage_enrollment_key");
    expect(m).toMatch(/variable "storage_enrollment_key" \{\n {2}type {8}= string\n {2}sensitive {3}= true/);
  });
  it("escapes a hostile URL for HCL", () => {
    expect(coderModuleBlock('https://x/"${evil}')).toContain('dashboard_url  = "https://x/\\"$${evil}"');
  });
});

describe("coderTemplateSnippet", () => {
  const s = coderTemplateSnippet("https://storage.example.com/");
  it("is a cron coder_script that downloads and runs the reporter with node", () => {
    expect(s).toContain('resource "coder_script" "storage_reporter"');
    expect(s).toContain('cron         = "0 */30 * * * *"');
    expect(s).toContain("run_on_start = true");
    expect(s).toContain("agent_id     = coder_agent.main.id");
    expect(s).toMatch(/curl -fsSL .*reporter\.mjs/);
    expect(s).toContain("wget -q");
    expect(s).toContain('node --max-semi-space-size=1 "$dir/reporter.mjs"');
    expect(s).toContain("node (18 or newer) is not installed");
    expect(s).toContain("$HOME/.coder-modules/coder/storage-reporter");
  });
  it("passes the configuration and identity", () => {
    expect(s).toContain('value    = "https://storage.example.com"');
    expect(s).toContain("value    = var.storage_enrollment_key");
    expect(s).toContain("sensitive   = true");
    expect(s).toContain(
      'description = "Enrollment key of the storage dashboard (Connect workspaces page: https://storage.example.com/connect)."',
    );
    expect(s).not.toContain("Settings page");
    expect(s).toContain("${data.coder_workspace.me.id}");
    expect(s).toContain("${data.coder_workspace.me.name}");
    expect(s).toContain("${data.coder_workspace_owner.me.name}");
    expect(s).toContain("value    = data.coder_workspace.me.template_name");
    // shell expansions are escaped from Terraform
    expect(s).toContain("$${CODER_WORKSPACE_AGENT_NAME:-main}");
    expect(s).not.toMatch(/[^$]\$\{CODER_/);
  });
  it("escapes a hostile URL for HCL", () => {
    const t = coderTemplateSnippet('https://x/"${evil}');
    expect(t).toContain('value    = "https://x/\\"$${evil}"');
  });
});
