// The registry module in deploy/coder against the Coder registry's rules (its CONTRIBUTING.md, AGENTS.md and the
// README validator in cmd/readmevalidation), parsed with an HCL parser; and its rendered script run against a
// stand-in dashboard for what a workspace sees when the download is refused, the dashboard is down, or reports
// wait in the spool. The run against the built dashboard is tests/browser/coder-module.test.ts.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { parse } from "@cdktf/hcl2json";
import { CronExpressionParser } from "cron-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { REPORTER_MODULE } from "@/lib/terraform/module";
import { registryModuleBlock, registrySource } from "@/lib/terraform/template-blocks";
// @ts-expect-error plain .mjs build script
import { buildReporter } from "@/scripts/build-reporter.mjs";
import {
  MODULE_DIR,
  TEMPLATE_FILE,
  parseHcl,
  renderModuleEnv,
  renderModuleScript,
  renderTemplate,
  runScript,
  templatefileCall,
  templateNames,
  type TerraformJson,
} from "@/tests/support/coder-module";

const readme = fs.readFileSync(path.join(MODULE_DIR, "README.md"), "utf8");
const mainTf = fs.readFileSync(path.join(MODULE_DIR, "main.tf"), "utf8");
let tf: TerraformJson;
type Block = Record<string, unknown>;

/** The README's front matter and body, split on the first two "---" lines as the registry's validator does. */
function splitReadme(text: string): { frontmatter: string; body: string } {
  const lines = text.trim().split("\n");
  expect(lines[0]).toBe("---");
  const end = lines.indexOf("---", 1);
  expect(end).toBeGreaterThan(1);
  return {
    frontmatter: lines.slice(1, end).join("\n"),
    body: lines
      .slice(end + 1)
      .join("\n")
      .trim(),
  };
}

/** Markdown lines outside code fences. */
function proseLines(body: string): string[] {
  let inCode = false;
  return body.split("\n").filter((line) => {
    if (line.startsWith("```")) {
      inCode = !inCode;
      return false;
    }
    return !inCode;
  });
}

/** The h1's section: every line up to the next heading outside a code block. */
function h1Section(body: string): string[] {
  const lines = body.split("\n");
  const out = [lines[0]];
  let inCode = false;
  for (const line of lines.slice(1)) {
    if (line.startsWith("```")) inCode = !inCode;
    if (!inCode && line.startsWith("#")) break;
    out.push(line);
  }
  return out;
}

function codeBlocks(lines: string[]): { lang: string; text: string }[] {
  const blocks: { lang: string; text: string }[] = [];
  let current: { lang: string; lines: string[] } | null = null;
  for (const line of lines) {
    if (line.startsWith("```")) {
      if (current) {
        blocks.push({ lang: current.lang, text: current.lines.join("\n") });
        current = null;
      } else current = { lang: line.slice(3).trim(), lines: [] };
    } else current?.lines.push(line);
  }
  return blocks;
}

beforeAll(async () => {
  tf = await parseHcl(path.join(MODULE_DIR, "main.tf"));
});

describe("the module's files", () => {
  it("has main.tf, a README.md and at least one .tftest.hcl, each of which parses as HCL", async () => {
    const files = fs.readdirSync(MODULE_DIR);
    expect(files).toEqual(expect.arrayContaining(["main.tf", "README.md"]));
    const tests = files.filter((f) => f.endsWith(".tftest.hcl"));
    expect(tests.length).toBeGreaterThanOrEqual(1);
    for (const t of tests) {
      const parsed = await parseHcl(path.join(MODULE_DIR, t));
      const runs = Object.entries(parsed.run ?? {});
      expect(runs.length, t).toBeGreaterThanOrEqual(3);
      for (const [name, [run]] of runs) expect(run.command, `${t}: run "${name}"`).toBe("${plan}");
    }
  });

  it("every run of the Terraform tests names variables the module declares, and checks each validation", async () => {
    const declared = Object.keys(tf.variable!);
    const [testFile] = fs.readdirSync(MODULE_DIR).filter((f) => f.endsWith(".tftest.hcl"));
    const runs = Object.values((await parseHcl(path.join(MODULE_DIR, testFile))).run!).map(([r]) => r);
    for (const run of runs) {
      const vars = (run.variables as Record<string, unknown>[])[0];
      for (const name of Object.keys(vars)) expect(declared).toContain(name);
    }
    const refused = runs.flatMap((r) => (r.expect_failures as string[] | undefined) ?? []);
    const validated = declared.filter((v) => tf.variable![v][0].validation);
    expect(refused.map((r) => r.replace(/^\$\{|\}$/g, "")).sort()).toEqual(validated.map((v) => `var.${v}`).sort());
  });
});

describe("variables and outputs", () => {
  it("declares agent_id, dashboard_url, a sensitive enrollment_key, schedule, roots, nice and node_runtime, each described", () => {
    const v = tf.variable!;
    for (const name of ["agent_id", "dashboard_url", "enrollment_key", "schedule", "roots", "nice", "node_runtime"]) {
      expect(v[name], name).toBeDefined();
      expect(String(v[name][0].description ?? "").length, name).toBeGreaterThan(10);
    }
    expect(v.enrollment_key[0].sensitive).toBe(true);
    expect(v.enrollment_key[0].default).toBeUndefined();
    expect(v.agent_id[0].default).toBeUndefined();
    expect(v.roots[0].default).toEqual([]);
    expect(v.node_runtime[0].default).toBe("download");
  });

  it("orders each variable's arguments description, type, default, validation, sensitive (AGENTS.md)", () => {
    const order = ["description", "type", "default", "validation", "sensitive"];
    for (const m of mainTf.matchAll(/^variable "(\w+)" \{\n([\s\S]*?)^\}/gm)) {
      const seen = [...m[2].matchAll(/^ {2}(\w+)\s*(?:=|\{)/gm)].map((a) => a[1]);
      expect(seen, m[1]).toEqual(order.filter((a) => seen.includes(a)));
    }
  });

  it("describes every output", () => {
    const outputs = Object.entries(tf.output!);
    expect(outputs.map(([n]) => n)).toEqual(expect.arrayContaining(["module_directory", "log_path", "reporter_url"]));
    for (const [name, [o]] of outputs) expect(String(o.description ?? "").length, name).toBeGreaterThan(10);
  });

  it("defaults to a six-field cron expression, seconds first, that runs every 30 minutes", () => {
    const schedule = tf.variable!.schedule[0].default as string;
    expect(schedule.split(/\s+/)).toHaveLength(6);
    const next = CronExpressionParser.parse(schedule, { currentDate: new Date("2026-01-01T00:00:00Z"), tz: "UTC" });
    expect(next.take(2).map((d) => d.toISOString())).toEqual(["2026-01-01T00:30:00.000Z", "2026-01-01T01:00:00.000Z"]);
  });
});

describe("resources", () => {
  it("a coder_script on the given agent, at start and on the schedule, and the key in the agent's environment", () => {
    const [script] = tf.resource!.coder_script!.storage_reporter!;
    expect(script.agent_id).toBe("${var.agent_id}");
    expect(script.cron).toBe("${var.schedule}");
    expect(script.run_on_start).toBe(true);
    const [env] = tf.resource!.coder_env!.enrollment_key!;
    expect(env).toMatchObject({ agent_id: "${var.agent_id}", name: "STORAGE_ENROLLMENT_KEY" });
    expect(env.value).toBe("${var.enrollment_key}");
  });

  it("gives the reporter Coder's URL and the owner's session token unless coder_inbox is off, never in the script", async () => {
    const coder = { accessUrl: "https://coder.example.com", ownerEmail: "alice@example.com", sessionToken: "tok-ABC" };
    const inputs = { dashboard_url: "https://storage.example.com", enrollment_key: "sek_test" };
    const base = { STORAGE_ENROLLMENT_KEY: "sek_test", CODER_WORKSPACE_OWNER_EMAIL: "alice@example.com" };
    expect(await renderModuleEnv(inputs, coder)).toEqual({
      ...base,
      STORAGE_CODER_URL: "https://coder.example.com",
      STORAGE_CODER_SESSION_TOKEN: "tok-ABC",
    });
    expect(await renderModuleEnv({ ...inputs, coder_inbox: true }, coder)).toMatchObject({
      STORAGE_CODER_SESSION_TOKEN: "tok-ABC",
    });
    expect(await renderModuleEnv({ ...inputs, coder_inbox: false }, coder)).toEqual(base);
    for (const coder_inbox of [true, false]) {
      const script = await renderModuleScript(
        { ...inputs, coder_inbox },
        { id: "ws-id", name: "dev", owner: "alice", template: "docker" },
      );
      expect(script).not.toContain("tok-ABC");
      expect(script).not.toContain("STORAGE_CODER");
    }
  });

  it("keeps its data under $HOME/.coder-modules/<namespace>/<module>/, the same as the README's source", () => {
    const dir = Object.assign({}, ...tf.locals!).module_directory as string;
    const m = /^\$HOME\/\.coder-modules\/([a-z0-9-]+)\/([a-z0-9-]+)$/.exec(dir);
    expect(m, dir).not.toBeNull();
    expect(registrySource("https://storage.example.com")).toBe(`storage.example.com/${m![1]}/${m![2]}/coder`);
    // the reporter's own state folder is the module's
    expect(fs.readFileSync("lib/reporter/state.ts", "utf8")).toContain(
      `path.join(".coder-modules", "${m![1]}", "${m![2]}")`,
    );
  });

  it("passes the template exactly the names it uses", () => {
    const [script] = tf.resource!.coder_script!.storage_reporter!;
    const call = templatefileCall(script.script as string);
    expect(path.join(MODULE_DIR, call.file)).toBe(TEMPLATE_FILE);
    const used = templateNames(fs.readFileSync(TEMPLATE_FILE, "utf8"));
    expect([...used].sort()).toEqual(Object.keys(call.vars).sort());
  });
});

describe("README (the registry's validator's rules)", () => {
  const { frontmatter, body } = splitReadme(readme);

  it("has front matter with display_name, description, a registry icon, verified and URL-safe tags, and no other key", () => {
    const keys = frontmatter.split("\n").map((l) => l.split(":")[0]);
    const allowed = ["description", "icon", "display_name", "verified", "tags", "supported_os"];
    expect(keys.filter((k) => !allowed.includes(k))).toEqual([]);
    const fm = parseYaml(frontmatter) as Record<string, unknown>;
    expect(String(fm.display_name).length).toBeGreaterThan(0);
    expect(String(fm.description).length).toBeGreaterThan(20);
    expect(fm.icon).toMatch(/^\.\.\/\.\.\/\.\.\/\.\.\/\.icons\/[a-z0-9-]+\.svg$/);
    expect(typeof fm.verified).toBe("boolean");
    expect(Array.isArray(fm.tags)).toBe(true);
    for (const t of fm.tags as string[]) expect(encodeURIComponent(t)).toBe(t);
  });

  it("starts with its only h1, and headings go down one level at a time", () => {
    expect(body.startsWith("# ")).toBe(true);
    const headings = proseLines(body).filter((l) => /^#+/.test(l));
    expect(headings.filter((h) => /^# /.test(h))).toHaveLength(1);
    let level = 1;
    for (const h of headings.slice(1)) {
      const next = /^(#+) /.exec(h)![1].length;
      expect(next, h).toBeLessThanOrEqual(level + 1);
      level = next;
    }
  });

  it("has, in the h1's section, a paragraph and exactly one tf block, with a version; no hcl block anywhere", () => {
    const section = h1Section(body);
    const blocks = codeBlocks(section);
    expect(blocks.filter((b) => b.lang.startsWith("tf"))).toHaveLength(1);
    expect(blocks[0].text).toMatch(/^\s*\bversion\s+=/m);
    expect(proseLines(section.join("\n")).some((l) => l.trim() && !/^[#<!]/.test(l.trim()))).toBe(true);
    expect(codeBlocks(body.split("\n")).filter((b) => b.lang === "hcl")).toEqual([]);
  });

  it("its usage block is the Connect page's: the module on the dashboard's host, this major version, on coder_agent.main", async () => {
    const [usage] = codeBlocks(h1Section(body));
    const block = ((await parse("usage.tf", usage.text)) as TerraformJson & { module: Record<string, Block[]> }).module
      .storage_reporter[0];
    expect(block).toMatchObject({
      source: registrySource("https://storage.example.com"),
      version: `~> ${REPORTER_MODULE.version.split(".")[0]}.0`,
      agent_id: "${coder_agent.main.id}",
      enrollment_key: "${var.storage_enrollment_key}",
    });
    const page = (await parse("page.tf", registryModuleBlock("https://storage.example.com"))) as TerraformJson & {
      module: Record<string, Block[]>;
    };
    expect(page.module.storage_reporter[0]).toEqual(block);
    // every tf block of the README parses
    for (const b of codeBlocks(body.split("\n")).filter((x) => x.lang === "tf")) await parse("block.tf", b.text);
  });

  it("writes GitHub alerts the way the registry renders them", () => {
    for (const line of proseLines(body).filter((l) => /^>\s*\[!/.test(l)))
      expect(line).toMatch(/^> \[!(NOTE|IMPORTANT|CAUTION|WARNING|TIP)\]$/);
  });
});

describe("the rendered script", () => {
  it("renders as templatefile would: $${ is a literal ${, and no expression is left", async () => {
    expect(renderTemplate("a $${HOME} ${X} %%{b}", { X: "x" })).toBe("a ${HOME} x %{b}");
    expect(() => renderTemplate("${var.x}", {})).toThrow(/expression/);
    expect(() => renderTemplate("${Y}", {})).toThrow(/does not contain key "Y"/);
    const script = await renderModuleScript(
      { dashboard_url: "https://storage.example.com/" },
      { id: "ws-id", name: "dev", owner: "alice", template: "docker" },
    );
    expect(script).toContain("DASHBOARD_URL='https://storage.example.com'");
    expect(script).toContain('CODER_WORKSPACE_AGENT_NAME="${CODER_WORKSPACE_AGENT_NAME:-main}"');
    expect(script).not.toMatch(/\$\$\{/);
    execFileSync("bash", ["-n"], { input: script });
  });
});

describe("the rendered script in a workspace", () => {
  let tmp: string;
  let bundle: Buffer;
  let server: http.Server;
  let base: string;
  /** What the stand-in dashboard serves as the reporter's checksum; the real one unless a test changes it. */
  let published: string;
  const requests: string[] = [];
  /** The Authorization header of each download of the reporter or its checksum ("none" without one). */
  const authorizations: string[] = [];
  const who = { id: "0b5c7a4e-4a51-4d1f-8a9e-5f6e7d8c9b0a", name: "dev", owner: "alice", template: "docker" };
  const moduleDir = (home: string) => path.join(home, ".coder-modules/coder/storage-reporter");

  function freshHome(): string {
    const home = fs.mkdtempSync(path.join(tmp, "home-"));
    fs.mkdirSync(path.join(home, ".claude/projects/-w"), { recursive: true });
    fs.writeFileSync(path.join(home, ".claude/projects/-w/s.jsonl"), "{}\n".repeat(100));
    return home;
  }

  async function run(home: string, inputs: Partial<Parameters<typeof renderModuleScript>[0]> = {}) {
    const script = await renderModuleScript({ dashboard_url: base, splay: 0, ...inputs }, who);
    return runScript(script, { HOME: home, STORAGE_ENROLLMENT_KEY: "sek_stand_in" }, tmp);
  }

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "coder-module-"));
    const file = await buildReporter(path.join(tmp, "reporter.mjs"));
    bundle = fs.readFileSync(file);
    published = `${crypto.createHash("sha256").update(bundle).digest("hex")}  reporter.mjs\n`;
    expect(fs.readFileSync(`${file}.sha256`, "utf8")).toBe(published);
    // A dashboard that serves the reporter and its checksum, and is down for everything else (503).
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      if (req.url?.startsWith("/reporter.mjs")) authorizations.push(req.headers.authorization ?? "none");
      if (req.url === "/reporter.mjs") return res.end(bundle);
      if (req.url === "/reporter.mjs.sha256") return res.end(published);
      res.writeHead(503, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: { code: "unavailable", message: "down for the test" } }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("downloads and checks the reporter, writes the extra roots, and succeeds while the report waits in the spool", async () => {
    const home = freshHome();
    const roots = [{ key: "datasets", path: "data/sets" }];
    const r = await run(home, { roots });
    expect(r.code, r.output).toBe(0);
    const dir = moduleDir(home);
    expect(fs.readFileSync(path.join(dir, "scripts/reporter.mjs")).equals(bundle)).toBe(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "config.json"), "utf8"))).toEqual({
      roots: [{ agent: "other", key: "datasets", path: "data/sets" }],
    });
    // the enrollment failed (503): the report is spooled, and the run's output is in logs/run.log
    expect(fs.readdirSync(path.join(dir, "spool")).filter((n) => n.endsWith(".json.gz"))).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, "logs/run.log"), "utf8")).toBe(r.output);
    expect(r.output).toMatch(/spool/);
    expect(requests).toEqual(expect.arrayContaining(["GET /reporter.mjs", "GET /reporter.mjs.sha256"]));
  });

  it("refuses a download whose checksum differs: no reporter runs, and the script fails visibly", async () => {
    const home = freshHome();
    published = `${"0".repeat(64)}  reporter.mjs\n`;
    try {
      const r = await run(home);
      expect(r.code, r.output).toBe(1);
      expect(r.output).toContain("refused the downloaded reporter: its SHA-256 is");
      expect(fs.readdirSync(path.join(moduleDir(home), "scripts"))).toEqual(["reporter.mjs.sha256"]);
    } finally {
      published = `${crypto.createHash("sha256").update(bundle).digest("hex")}  reporter.mjs\n`;
    }
  });

  it("keeps running the reporter it has when a later download is refused or the dashboard is unreachable", async () => {
    const home = freshHome();
    expect((await run(home)).code).toBe(0);
    published = `${"0".repeat(64)}  reporter.mjs\n`;
    try {
      const refused = await run(home);
      expect(refused.code, refused.output).toBe(0);
      expect(refused.output).toContain("running the reporter downloaded before");
    } finally {
      published = `${crypto.createHash("sha256").update(bundle).digest("hex")}  reporter.mjs\n`;
    }
    const down = await run(home, { dashboard_url: "http://127.0.0.1:9" });
    expect(down.code, down.output).toBe(0);
    expect(down.output).toContain("could not download http://127.0.0.1:9/reporter.mjs");
    expect(fs.readFileSync(path.join(moduleDir(home), "scripts/reporter.mjs")).equals(bundle)).toBe(true);
    expect(fs.readdirSync(path.join(moduleDir(home), "spool")).filter((n) => n.endsWith(".json.gz"))).toHaveLength(3);
  });

  it("falls back to the reporter it replaced when the new one fails as a broken reporter does, and says so", async () => {
    const home = freshHome();
    expect((await run(home)).code).toBe(0);
    // A new version that answers --version (so the download is accepted) and fails every run (exit 1, INTERNAL).
    const broken = Buffer.from(
      'if (process.argv.includes("--version")) { console.log("9.9.9-broken"); process.exit(0); }\n' +
        'console.error("broken on purpose"); process.exit(1);\n',
    );
    const real = { bundle, published };
    bundle = broken;
    published = `${crypto.createHash("sha256").update(broken).digest("hex")}  reporter.mjs\n`;
    try {
      const r = await run(home);
      expect(r.code, r.output).toBe(0);
      expect(r.output).toContain("the reporter 9.9.9-broken failed (exit 1): running the one it replaced");
      const scripts = path.join(moduleDir(home), "scripts");
      expect(fs.readFileSync(path.join(scripts, "reporter.mjs")).equals(broken)).toBe(true);
      expect(fs.readFileSync(path.join(scripts, "reporter.prev.mjs")).equals(real.bundle)).toBe(true);
      // the report the previous reporter spooled names the version it fell back from
      const spool = path.join(moduleDir(home), "spool");
      const reports = fs
        .readdirSync(spool)
        .filter((n) => n.endsWith(".json.gz"))
        .map((n) => JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(spool, n))).toString("utf8")));
      expect(reports.map((x) => x.reporter.fellBackFrom)).toEqual([undefined, "9.9.9-broken"]);
    } finally {
      ({ bundle, published } = real);
    }
  });

  it("sends the workspace's token with the download once enrolled, so the dashboard picks its version", async () => {
    const home = freshHome();
    fs.mkdirSync(moduleDir(home), { recursive: true });
    fs.writeFileSync(path.join(moduleDir(home), "token"), "swt_stand_in\n");
    authorizations.length = 0;
    expect((await run(home)).code).toBe(0);
    expect(authorizations).toEqual(["Bearer swt_stand_in", "Bearer swt_stand_in"]);
  });

  it("with no reporter yet and the dashboard unreachable, says so and succeeds (the next run tries again)", async () => {
    const home = freshHome();
    const r = await run(home, { dashboard_url: "http://127.0.0.1:9" });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain("could not download");
    expect(fs.existsSync(path.join(moduleDir(home), "scripts/reporter.mjs"))).toBe(false);
  });
});

// An image without Node.js, without root: PATH holds only the tools the script may use, as links, and stand-ins
// for uname, getconf and ldd that describe another machine. The stand-in dashboard records why the workspace
// cannot report, and serves a runtime whose hash is not the module's.
describe("the rendered script on an image without Node.js", () => {
  const TOOLS = [
    "bash",
    "curl",
    "cat",
    "tr",
    "cut",
    "sha256sum",
    "ls",
    "grep",
    "head",
    "mkdir",
    "gzip",
    "rm",
    "chmod",
    "mv",
    "find",
    "basename",
    "base64",
    "tee",
    "nice",
    "env",
    "uname",
    "getconf",
    "ldd",
  ];
  let tmp: string;
  let server: http.Server;
  let base: string;
  let moduleCopy: string;
  const blockers: Record<string, unknown>[] = [];
  const who = { id: "7d0c1f3a-0c2e-4f0a-9d6b-2b1e4f5a6c7d", name: "base", owner: "bob", template: "docker" };

  /** A PATH of links to the tools, without `leaveOut`, with `fake` tools written as scripts. */
  function pathWith(fake: Record<string, string> = {}, leaveOut: string[] = []): string {
    const dir = fs.mkdtempSync(path.join(tmp, "bin-"));
    for (const tool of TOOLS.filter((t) => !leaveOut.includes(t))) {
      if (fake[tool]) fs.writeFileSync(path.join(dir, tool), `#!/bin/sh\n${fake[tool]}\n`, { mode: 0o755 });
      else
        fs.symlinkSync(
          execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim(),
          path.join(dir, tool),
        );
    }
    return dir;
  }

  async function run(
    opts: {
      fake?: Record<string, string>;
      leaveOut?: string[];
      inputs?: Partial<Parameters<typeof renderModuleScript>[0]>;
      module?: string;
    } = {},
  ) {
    const script = await renderModuleScript(
      { dashboard_url: base, splay: 0, ...opts.inputs },
      who,
      opts.module ?? moduleCopy,
    );
    const home = fs.mkdtempSync(path.join(tmp, "home-"));
    const before = blockers.length;
    const r = await runScript(
      script,
      { HOME: home, PATH: pathWith(opts.fake, opts.leaveOut), STORAGE_ENROLLMENT_KEY: "sek_x" },
      tmp,
    );
    return { ...r, home, blocker: blockers.length > before ? blockers.at(-1)! : null };
  }

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "coder-module-no-node-"));
    // the module as the dashboard's build packs it: deploy/coder and a runtime.json
    moduleCopy = path.join(tmp, "module");
    fs.cpSync(MODULE_DIR, moduleCopy, { recursive: true });
    const file = (arch: string) => ({
      path: `runtime/node-v22.0.0-linux-${arch}.gz`,
      sha256: "a".repeat(64),
      bytes: 1,
      gzBytes: 1,
    });
    fs.writeFileSync(
      path.join(moduleCopy, "runtime.json"),
      JSON.stringify({
        module_version: "9.9.9",
        node: { version: "22.0.0", files: { x64: file("x64"), arm64: file("arm64") } },
      }),
    );
    server = http.createServer((req, res) => {
      if (req.method === "POST" && req.url === "/api/v1/report-blockers") {
        let body = "";
        req.on("data", (c: Buffer) => (body += c));
        req.on("end", () => {
          blockers.push({ ...(JSON.parse(body) as Record<string, unknown>), key: req.headers["x-enrollment-key"] });
          res.writeHead(200, { "Content-Type": "application/json" }).end('{"recorded":true}');
        });
        return;
      }
      // a gzipped file that is not the runtime the module expects
      if (req.url?.startsWith("/runtime/")) return res.end(zlib.gzipSync(Buffer.from("#!/bin/sh\necho v22.0.0\n")));
      res.writeHead(503).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("an architecture the runtime is not built for: says so, tells the dashboard, and the workspace starts", async () => {
    const r = await run({ fake: { uname: "echo riscv64" } });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain("built for x86_64 and aarch64, not riscv64; no storage report sent");
    expect(r.blocker).toEqual({
      workspace: { id: who.id, name: who.name, owner: who.owner, template: who.template },
      reason: "unsupported-arch",
      detail: expect.stringContaining("not riscv64"),
      moduleVersion: "9.9.9",
      key: "sek_x",
    });
  });

  it("musl (Alpine), and glibc older than 2.28", async () => {
    const musl = await run({
      fake: { uname: "echo x86_64", getconf: "exit 1", ldd: 'echo "musl libc (x86_64)" >&2; exit 1' },
    });
    expect(musl.blocker).toMatchObject({ reason: "unsupported-libc", detail: expect.stringContaining("not musl") });
    const old = await run({ fake: { uname: "echo x86_64", getconf: "echo glibc 2.17" } });
    expect(old.blocker).toMatchObject({ reason: "unsupported-libc", detail: expect.stringContaining("not 2.17") });
    const ok = await run({ fake: { uname: "echo aarch64", getconf: "echo glibc 2.28" } });
    expect(ok.blocker).toMatchObject({ reason: "runtime-checksum" });
    expect(ok.output).toContain("for linux-arm64");
  });

  it("names a missing tool: gzip", async () => {
    const r = await run({ fake: { uname: "echo x86_64" }, leaveOut: ["gzip"] });
    expect(r.blocker).toMatchObject({ reason: "missing-tools", detail: expect.stringContaining("needs gzip") });
  });

  it("refuses a runtime whose SHA-256 is not the module's, and keeps nothing of it", async () => {
    const r = await run({ fake: { uname: "echo x86_64" } });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(
      /refused the runtime downloaded from .*: its SHA-256 is [0-9a-f]{64}, the module expects a{64}/,
    );
    expect(r.blocker).toMatchObject({ reason: "runtime-checksum" });
    expect(fs.readdirSync(path.join(r.home, ".coder-modules/coder/storage-reporter/runtime"))).toEqual([]);
  });

  it('node_runtime = "never", a node_runtime path that is no Node.js, and a copy of deploy/coder without runtime.json', async () => {
    const never = await run({ inputs: { node_runtime: "never" } });
    expect(never.blocker).toMatchObject({
      reason: "no-runtime",
      detail: expect.stringContaining(`node_runtime = "never"`),
    });
    const wrong = await run({ inputs: { node_runtime: "/usr/bin/false" } });
    expect(wrong.blocker).toMatchObject({ reason: "no-runtime", detail: expect.stringContaining("/usr/bin/false") });
    const source = await run({ fake: { uname: "echo x86_64" }, module: MODULE_DIR });
    expect(source.blocker).toMatchObject({
      reason: "no-runtime",
      detail: expect.stringContaining("carries no runtime"),
      moduleVersion: "source",
    });
  });
});
