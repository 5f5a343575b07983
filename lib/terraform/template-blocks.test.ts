import { parse } from "@cdktf/hcl2json";
import { describe, expect, it } from "vitest";
import { REPORTER_MODULE } from "./module";
import {
  archiveModuleBlock,
  copiedModule,
  preferredModuleBlock,
  registryModuleBlock,
  registrySource,
  templatePushCommand,
  unreachableUrlWarning,
} from "./template-blocks";

type Parsed = {
  module: Record<string, Record<string, unknown>[]>;
  variable: Record<string, Record<string, unknown>[]>;
};
const moduleOf = async (block: string) => ((await parse("main.tf", block)) as Parsed).module.storage_reporter[0];

describe("the module blocks", () => {
  it("by the registry protocol: the dashboard's host, the module's address, any release of this major version", async () => {
    const m = await moduleOf(registryModuleBlock("https://storage.example.com:8443/"));
    expect(m).toEqual({
      source: "storage.example.com:8443/coder/storage-reporter/coder",
      version: `~> ${REPORTER_MODULE.version.split(".")[0]}.0`,
      agent_id: "${coder_agent.main.id}",
      dashboard_url: "https://storage.example.com:8443",
      enrollment_key: "${var.storage_enrollment_key}",
    });
  });

  it("as an archive URL and as a copy: no version (neither source has versions)", async () => {
    expect(await moduleOf(archiveModuleBlock("http://10.0.0.5:3000"))).toMatchObject({
      source: "http://10.0.0.5:3000/terraform/storage-reporter.tar.gz",
      dashboard_url: "http://10.0.0.5:3000",
    });
    const copy = copiedModule("http://10.0.0.5:3000/");
    expect(await moduleOf(copy.block)).not.toHaveProperty("version");
    expect((await moduleOf(copy.block)).source).toBe("./storage-reporter");
    expect(copy.commands).toContain(
      "curl -fsSL 'http://10.0.0.5:3000/terraform/storage-reporter.tar.gz' | tar -xz -C storage-reporter",
    );
  });

  it("keeps the key in a sensitive template variable", async () => {
    const parsed = (await parse("main.tf", registryModuleBlock("https://s.example.com"))) as Parsed;
    expect(parsed.variable.storage_enrollment_key[0]).toMatchObject({ type: "${string}", sensitive: true });
  });

  it("offers the registry over https and the archive over plain http (Terraform asks a registry over https only)", () => {
    expect(preferredModuleBlock("https://s.example.com")).toContain('source         = "s.example.com/coder/');
    expect(preferredModuleBlock("http://s.example.com")).toContain('source         = "http://s.example.com/terraform/');
  });

  it("escapes a hostile URL for HCL and for the shell", () => {
    expect(archiveModuleBlock('https://x/"${evil}')).toContain('dashboard_url  = "https://x/\\"$${evil}"');
    expect(copiedModule("https://x/it's").commands).toContain("'https://x/it'\\''s/terraform/storage-reporter.tar.gz'");
    expect(registrySource("https://x:1/")).toBe("x:1/coder/storage-reporter/coder");
  });
});

describe("templatePushCommand", () => {
  it("sets the key variable at the first push, or names it for a viewer", () => {
    expect(templatePushCommand("sek_a'b")).toBe(
      "coder templates push <template> --variable storage_enrollment_key='sek_a'\\''b'",
    );
    expect(templatePushCommand(null)).toContain("storage_enrollment_key='<enrollment key>'");
  });
});

describe("unreachableUrlWarning", () => {
  it("warns for loopback and unspecified addresses, which name the workspace itself", () => {
    for (const u of [
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
      "http://0.0.0.0",
      "http://app.localhost",
    ])
      expect(unreachableUrlWarning(u), u).toMatch(/workspaces cannot reach/);
    for (const u of ["https://storage.example.com", "http://10.0.0.5:3000", "http://dashboard:3000"])
      expect(unreachableUrlWarning(u), u).toBeNull();
  });
});
