// First contact, as a template admin makes it, against the built dashboard on a fresh database: the Connect page
// (prerequisites, the warning for a loopback URL, the module block, the push, "waiting for the first report…"),
// the module fetched the way Terraform fetches it (the registry protocol: discovery, versions, download, the
// archive), and the archive's coder_script rendered as Terraform renders it and run as the Coder agent runs it,
// as an unprivileged user: on an image without Node.js (hidden by an overlay in a mount namespace), again with the
// runtime it kept, behind a proxy that alone knows the dashboard's name, and where the reporter cannot run at all.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { parse } from "@cdktf/hcl2json";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULES_V1_PATH, REPORTER_MODULE } from "@/lib/terraform/module";
import {
  MODULE_DIR,
  readRuntimeJson,
  renderModuleScript,
  runScript,
  WORKSPACE_UID,
  type ModuleInputs,
} from "@/tests/support/coder-module";
import { openPage, startHarness, type Harness, type OpenedPage } from "./harness";

const SHOTS = "screenshots";
const ROOT = process.getuid?.() === 0;
let h: Harness;
let tmp: string;
let enrollmentKey = "";
let moduleBlock = "";
/** The module as `terraform init` got it: the archive the registry's download pointed at, unpacked. */
let moduleDir = "";

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

/** A home of the workspace user's with a Claude session in it. */
function freshHome(name: string): string {
  const home = path.join(tmp, name);
  fs.mkdirSync(path.join(home, ".claude/projects/-w"), { recursive: true });
  fs.writeFileSync(path.join(home, ".claude/projects/-w/session.jsonl"), "{}\n".repeat(20_000));
  execFileSync("chown", ["-R", `${WORKSPACE_UID}:${WORKSPACE_UID}`, home]);
  return home;
}

const workspace = (name: string) => ({ id: crypto.randomUUID(), name, owner: "mona", template: "docker-base" });

/** The module's script for `who`, from the archive the registry served, run in `home` as the workspace's user. */
async function runModule(
  who: ReturnType<typeof workspace>,
  home: string,
  opts: { inputs?: Partial<ModuleInputs>; env?: Record<string, string>; withoutNode?: boolean } = {},
) {
  const block = (await parse("main.tf", moduleBlock)) as { module: Record<string, { dashboard_url: string }[]> };
  const script = await renderModuleScript(
    { dashboard_url: block.module.storage_reporter[0].dashboard_url, splay: 0, ...opts.inputs },
    who,
    moduleDir,
  );
  // the agent's environment: coder_env's key and the agent's own name
  const env = { HOME: home, STORAGE_ENROLLMENT_KEY: enrollmentKey, CODER_WORKSPACE_AGENT_NAME: "main", ...opts.env };
  return runScript(script, env, tmp, { as: "workspace user", withoutNode: opts.withoutNode });
}

/** The workspace's page data, as the signed-in admin reads it. */
async function workspaceApi(id: string): Promise<{ status: number; body: WorkspaceApi }> {
  const context = await h.browser.newContext({ storageState: h.admin });
  const res = await context.request.get(`${h.base}/api/v1/workspaces/${id}`);
  const body = res.status() === 200 ? ((await res.json()) as WorkspaceApi) : ({} as WorkspaceApi);
  await context.close();
  return { status: res.status(), body };
}

beforeAll(async () => {
  // A dashboard of its own with no workspace yet: what a newcomer first sees.
  h = await startHarness({ own: true, workspaces: 0 });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "coder-module-e2e-")));
  // the workspace user reaches its home and the script through this folder
  fs.chmodSync(tmp, 0o755);
});

afterAll(async () => {
  await h?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the Connect page of a dashboard no workspace reports to yet", () => {
  it("states what a workspace needs, warns that 127.0.0.1 is no address for workspaces, and waits for the first report", async () => {
    const p = await openPage(h, "/connect");
    enrollmentKey = ((await p.page.getByTestId("enrollment-key").textContent()) ?? "").trim();
    expect(enrollmentKey.length).toBeGreaterThan(10);
    const prerequisites = (await p.page.getByTestId("prerequisites").textContent()) ?? "";
    for (const need of ["coder templates push", "curl", "wget", "Node.js 18", "glibc 2.28", "gzip", "no_proxy"])
      expect(prerequisites).toContain(need);
    expect(await p.page.getByTestId("url-warning").textContent()).toContain("workspaces cannot reach");
    expect(await p.page.getByTestId("push-command").textContent()).toBe(
      `coder templates push <template> --variable storage_enrollment_key='${enrollmentKey}'`,
    );
    expect(await p.page.getByTestId("first-report").textContent()).toContain("Waiting for the first report");
    await shots(p, "connect-waiting");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("offers the module by its archive's URL over plain http (Terraform asks a registry over https only), and says why", async () => {
    const p = await openPage(h, "/connect");
    moduleBlock = (await p.page.getByTestId("module-block").textContent()) ?? "";
    const parsed = (await parse("main.tf", moduleBlock)) as {
      module: Record<string, Record<string, unknown>[]>;
      variable: Record<string, Record<string, unknown>[]>;
    };
    expect(parsed.module.storage_reporter[0]).toEqual({
      source: `${h.base}/terraform/storage-reporter.tar.gz`,
      agent_id: "${coder_agent.main.id}",
      dashboard_url: h.base,
      enrollment_key: "${var.storage_enrollment_key}",
    });
    expect(parsed.variable.storage_enrollment_key[0].sensitive).toBe(true);
    expect(await p.page.getByTestId("http-warning").textContent()).toContain("Serve the dashboard over https");
    // the copy, folded until asked for
    expect(await p.page.getByTestId("copy-commands").isVisible()).toBe(false);
    await p.page.locator("summary", { hasText: "copied into the template" }).click();
    expect(await p.page.getByTestId("copy-commands").textContent()).toContain(
      `curl -fsSL '${h.base}/terraform/storage-reporter.tar.gz' | tar -xz -C storage-reporter`,
    );
    expect(p.errors).toEqual([]);
    await p.context.close();
  });
});

describe("the module registry protocol, as terraform init follows it", () => {
  it("answers 404 for another version or another module, and needs no sign-in anywhere", async () => {
    const registry = new URL(MODULES_V1_PATH, h.base);
    for (const p of [
      "coder/storage-reporter/coder/0.9.0/download",
      "coder/other/coder/versions",
      "acme/storage-reporter/coder/versions",
    ]) {
      const res = await fetch(new URL(p, registry), { redirect: "manual" });
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });

  it("discovery, versions and download lead to the archive: deploy/coder's files and the runtimes' SHA-256", async () => {
    const host = new URL(h.base);
    const discovery = await fetch(new URL("/.well-known/terraform.json", host));
    expect(discovery.status).toBe(200);
    const services = (await discovery.json()) as Record<string, string>;
    expect(services["modules.v1"]).toBe(MODULES_V1_PATH);
    const registry = new URL(services["modules.v1"], discovery.url);
    const { namespace, name, provider, version } = REPORTER_MODULE;

    const versions = await fetch(new URL(`${namespace}/${name}/${provider}/versions`, registry));
    expect(await versions.json()).toEqual({ modules: [{ versions: [{ version }] }] });

    const downloadUrl = new URL(`${namespace}/${name}/${provider}/${version}/download`, registry);
    const download = await fetch(downloadUrl);
    expect(download.status).toBe(204);
    const location = download.headers.get("x-terraform-get")!;
    expect(location).toMatch(/^\/.*\.tar\.gz$/);
    const archive = await fetch(new URL(location, downloadUrl));
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(await archive.arrayBuffer());
    // the archive URL the Connect page offers is the same module
    const latest = Buffer.from(await (await fetch(`${h.base}/terraform/storage-reporter.tar.gz`)).arrayBuffer());
    expect(latest.equals(bytes)).toBe(true);

    moduleDir = path.join(tmp, "module");
    fs.mkdirSync(moduleDir);
    fs.writeFileSync(path.join(tmp, "module.tar.gz"), bytes);
    execFileSync("tar", ["-xzf", path.join(tmp, "module.tar.gz"), "-C", moduleDir]);
    fs.chmodSync(moduleDir, 0o755);
    for (const f of ["main.tf", "README.md", "main.tftest.hcl", "scripts/run.sh.tftpl"]) {
      expect(fs.readFileSync(path.join(moduleDir, f)).equals(fs.readFileSync(path.join(MODULE_DIR, f))), f).toBe(true);
    }
    const runtime = readRuntimeJson(moduleDir);
    expect(runtime.module_version).toBe(version);
    expect(Object.keys(runtime.node.files).sort()).toEqual(["arm64", "x64"]);
    // each runtime the dashboard serves is the binary whose hash the module carries
    for (const file of Object.values(runtime.node.files)) {
      const gz = Buffer.from(await (await fetch(`${h.base}/${file.path}`)).arrayBuffer());
      expect(gz.length).toBe(file.gzBytes);
      const binary = zlib.gunzipSync(gz);
      expect(crypto.createHash("sha256").update(binary).digest("hex")).toBe(file.sha256);
    }
  });
});

describe.skipIf(!ROOT)("the module's script in a workspace (needs root: mounts, and a user to run as)", () => {
  const bare = workspace("base-image");
  let bareHome = "";
  let runtimeFile = "";

  it("on an image without Node.js, fetches the dashboard's runtime, checks it, and the report arrives", async () => {
    bareHome = freshHome("home-bare");
    const r = await runModule(bare, bareHome, { withoutNode: true });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain(`fetching Node.js ${readRuntimeJson(moduleDir).node.version} for linux-`);
    const dir = path.join(bareHome, ".coder-modules/coder/storage-reporter");
    const kept = fs.readdirSync(path.join(dir, "runtime"));
    expect(kept).toHaveLength(1);
    runtimeFile = path.join(dir, "runtime", kept[0]);
    const arch = process.arch === "arm64" ? "arm64" : "x64";
    const hash = crypto.createHash("sha256").update(fs.readFileSync(runtimeFile)).digest("hex");
    expect(hash).toBe(readRuntimeJson(moduleDir).node.files[arch].sha256);
    expect(fs.statSync(runtimeFile).uid).toBe(WORKSPACE_UID);

    const { status, body } = await workspaceApi(bare.id);
    expect(status).toBe(200);
    expect(body.workspace).toMatchObject({ name: bare.name, owner: bare.owner, template: bare.template });
    expect(body.reports).toHaveLength(1);
    expect(body.roots.find((x) => x.key === "claude-code:data")?.bytes).toBeGreaterThanOrEqual(60_000);
    // the runtime counts in the module's own usage: the space the product polices
    expect(body.roots.find((x) => x.key === "coder/storage-reporter")?.bytes).toBeGreaterThan(
      fs.statSync(runtimeFile).size,
    );
  });

  it("the next run reuses the runtime it kept: nothing is downloaded again, and its report arrives too", async () => {
    const before = fs.statSync(runtimeFile);
    const r = await runModule(bare, bareHome, { withoutNode: true });
    expect(r.code, r.output).toBe(0);
    expect(r.output).not.toContain("fetching Node.js");
    const after = fs.statSync(runtimeFile);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await workspaceApi(bare.id)).body.reports).toHaveLength(2);
  });

  it("behind a proxy that alone resolves the dashboard's name, curl and the reporter both go through it", async () => {
    const dashboard = new URL(h.base);
    const seen: string[] = [];
    // resolves storage.corp.test to the dashboard, and nothing else: a direct request fails to resolve
    const proxy = http.createServer((req, res) => {
      const target = new URL(req.url!);
      seen.push(`${req.method} ${target.host}${target.pathname}`);
      if (target.hostname !== "storage.corp.test") return void res.writeHead(502).end();
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: dashboard.port,
          path: `${target.pathname}${target.search}`,
          method: req.method,
          headers: req.headers,
        },
        (r) => r.pipe(res.writeHead(r.statusCode!, r.headers)),
      );
      upstream.on("error", () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    proxy.on("connect", (_req, socket: net.Socket) => socket.end("HTTP/1.1 403 Forbidden\r\n\r\n"));
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const proxied = workspace("behind-proxy");
      const url = `http://storage.corp.test:${dashboard.port}`;
      const env = { http_proxy: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, no_proxy: "localhost" };
      const r = await runModule(proxied, freshHome("home-proxy"), { inputs: { dashboard_url: url }, env });
      expect(r.code, r.output).toBe(0);
      expect(seen).toEqual(
        expect.arrayContaining([
          `GET storage.corp.test:${dashboard.port}/reporter.mjs`,
          `POST storage.corp.test:${dashboard.port}/api/v1/enroll`,
          `POST storage.corp.test:${dashboard.port}/api/v1/reports`,
        ]),
      );
      expect((await workspaceApi(proxied.id)).body.reports).toHaveLength(1);
    } finally {
      proxy.close();
    }
  });

  it("where the reporter cannot run, the workspace says why and the overview lists it; nothing is enrolled", async () => {
    const stuck = workspace("no-node-allowed");
    const r = await runModule(stuck, freshHome("home-stuck"), {
      withoutNode: true,
      inputs: { node_runtime: "never" },
    });
    // the workspace starts as usual: the script succeeds, and says why in Coder's script log
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('node_runtime = "never" forbids fetching one; no storage report sent');
    expect((await workspaceApi(stuck.id)).status).toBe(404);

    const p = await openPage(h, "/");
    const item = p.page.getByTestId("not-reporting").locator("li", { hasText: `${stuck.owner}/${stuck.name}` });
    await item.waitFor();
    expect(await item.getByTestId("not-reporting-reason").textContent()).toContain(
      "No Node.js 18 or newer, and none could be fetched",
    );
    await shots(p, "overview-not-reporting");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });

  it("the Connect page's wait has turned into the workspace that reported", async () => {
    const p = await openPage(h, "/connect");
    const first = p.page.getByTestId("first-report");
    await first.getByText("Reporting.").waitFor();
    expect(await first.locator("a").first().textContent()).toMatch(/^mona\//);
    await shots(p, "connect-reporting");
    expect(p.errors).toEqual([]);
    await p.context.close();
  });
});
