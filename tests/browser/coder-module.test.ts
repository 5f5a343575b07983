// The registry module against the built dashboard: the admin copies the module block and the enrollment key from
// the Connect page, the module's script is rendered from that block as Terraform would render it, and run as the
// Coder agent runs it in a workspace (HOME, the key from coder_env, the agent's name). The report arrives.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "@cdktf/hcl2json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORTER_MODULE } from "@/lib/reporter/coder-template";
import { renderModuleScript, runScript } from "@/tests/support/coder-module";
import { openPage, startHarness, type Harness, type OpenedPage } from "./harness";

const SHOTS = "screenshots";
const WORKSPACE = { id: crypto.randomUUID(), name: "module-dev", owner: "mona", template: "kubernetes" };
let h: Harness;
let tmp: string;
let home: string;
let enrollmentKey = "";
let moduleBlock = "";

async function shots(p: OpenedPage, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await p.page.setViewportSize({ width, height });
    await p.page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

type WorkspaceApi = {
  workspace: { name: string; owner: string; template: string | null };
  roots: { key: string; bytes: number }[];
  reports: { reporterVersion: string }[];
};

beforeAll(async () => {
  h = await startHarness();
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "coder-module-e2e-")));
  home = path.join(tmp, "home");
  fs.mkdirSync(path.join(home, ".claude/projects/-w"), { recursive: true });
  fs.writeFileSync(path.join(home, ".claude/projects/-w/session.jsonl"), "{}\n".repeat(20_000));
});

afterAll(async () => {
  await h?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the storage-reporter module against the built dashboard", () => {
  it("the Connect page shows the module block first, with this dashboard's URL, and the snippet as the alternative", async () => {
    const p = await openPage(h, "/connect");
    enrollmentKey = ((await p.page.getByTestId("enrollment-key").textContent()) ?? "").trim();
    expect(enrollmentKey.length).toBeGreaterThan(10);
    moduleBlock = (await p.page.getByTestId("module-block").textContent()) ?? "";
    const parsed = (await parse("main.tf", moduleBlock)) as {
      module: Record<string, Record<string, unknown>[]>;
      variable: Record<string, Record<string, unknown>[]>;
    };
    expect(parsed.module.storage_reporter[0]).toMatchObject({
      source: REPORTER_MODULE.source,
      version: REPORTER_MODULE.version,
      agent_id: "${coder_agent.main.id}",
      dashboard_url: h.base,
      enrollment_key: "${var.storage_enrollment_key}",
    });
    expect(parsed.variable.storage_enrollment_key[0].sensitive).toBe(true);
    // the module comes before the snippet, which stays folded until asked for
    const moduleBox = await p.page.getByTestId("module-block").boundingBox();
    const snippetSummary = p.page.locator("summary", { hasText: "cannot reach registry.coder.com" });
    const summaryBox = await snippetSummary.boundingBox();
    expect(moduleBox && summaryBox && moduleBox.y < summaryBox.y).toBe(true);
    expect(await p.page.getByTestId("template-snippet").isVisible()).toBe(false);
    await shots(p, "connect-module");
    await snippetSummary.click();
    await p.page.getByTestId("template-snippet").waitFor();
    expect(await p.page.getByTestId("template-snippet").textContent()).toContain('resource "coder_script"');
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the module's script, rendered from that block, downloads the checked reporter and its report arrives", async () => {
    const block = (await parse("main.tf", moduleBlock)) as { module: Record<string, { dashboard_url: string }[]> };
    const script = await renderModuleScript(
      { dashboard_url: block.module.storage_reporter[0].dashboard_url, splay: 0 },
      WORKSPACE,
    );
    // the agent's environment: coder_env's key and the agent's own name
    const env = { HOME: home, STORAGE_ENROLLMENT_KEY: enrollmentKey, CODER_WORKSPACE_AGENT_NAME: "main" };
    const first = await runScript(script, env, tmp);
    expect(first.code, first.output).toBe(0);

    const dir = path.join(home, ".coder-modules/coder/storage-reporter");
    const served = await (await fetch(`${h.base}/reporter.mjs`)).arrayBuffer();
    expect(fs.readFileSync(path.join(dir, "scripts/reporter.mjs")).equals(Buffer.from(served))).toBe(true);
    expect(fs.readFileSync(path.join(dir, "logs/run.log"), "utf8")).toBe(first.output);
    expect(fs.existsSync(path.join(dir, "token"))).toBe(true);

    // the schedule's next run uses the token it got, and its report arrives too
    const second = await runScript(script, env, tmp);
    expect(second.code, second.output).toBe(0);

    const p = await openPage(h, `/workspaces/${WORKSPACE.id}`);
    const res = await p.context.request.get(`${h.base}/api/v1/workspaces/${WORKSPACE.id}`);
    expect(res.status()).toBe(200);
    const detail = (await res.json()) as WorkspaceApi;
    expect(detail.workspace).toMatchObject({ name: WORKSPACE.name, owner: WORKSPACE.owner, template: "kubernetes" });
    expect(detail.reports).toHaveLength(2);
    const claude = detail.roots.find((r) => r.key === "claude-code:data");
    expect(claude?.bytes).toBeGreaterThanOrEqual(60_000);
    // the module's own folder is a root of the report like any module's
    expect(detail.roots.map((r) => r.key)).toContain("coder/storage-reporter");
    await p.page.locator('[data-testid="roots-table"] td[title="claude-code:data"]').waitFor();
    expect(p.errors).toEqual([]);
    await p.context.close();
  });
});
