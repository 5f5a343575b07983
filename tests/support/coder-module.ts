// The registry module in deploy/coder as Terraform would see it, without Terraform: its files parsed with an HCL
// parser (@cdktf/hcl2json, HashiCorp's HCL library compiled to WebAssembly), and its script rendered the way
// templatefile() renders it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parse } from "@cdktf/hcl2json";

export const MODULE_DIR = path.resolve("deploy/coder");
export const TEMPLATE_FILE = path.join(MODULE_DIR, "scripts", "run.sh.tftpl");

type Block = Record<string, unknown>;
/** hcl2json's shape: every block label maps to a list of bodies; expressions come back as "${...}" strings. */
export type TerraformJson = {
  terraform?: Block[];
  variable?: Record<string, Block[]>;
  resource?: Record<string, Record<string, Block[]>>;
  data?: Record<string, Record<string, Block[]>>;
  locals?: Block[];
  output?: Record<string, Block[]>;
  run?: Record<string, Block[]>;
};

export async function parseHcl(file: string): Promise<TerraformJson> {
  return (await parse(path.basename(file), fs.readFileSync(file, "utf8"))) as TerraformJson;
}

/** The names a template refers to as ${NAME}. */
export function templateNames(template: string): Set<string> {
  const names = new Set<string>();
  for (const m of template.matchAll(/(\$+)\{([^}]*)\}/g)) if (m[1].length % 2 === 1) names.add(m[2].trim());
  return names;
}

/**
 * templatefile() for the subset this module's template uses: ${NAME} is replaced by the value, $${ and %%{ are
 * the literal ${ and %{. Anything else Terraform would evaluate (an expression, a %{ directive) or a name
 * without a value is an error here, as a missing name is in Terraform.
 */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\$\$\{|%%\{|\$\{([^}]*)\}|%\{/g, (match, name: string | undefined) => {
    if (match === "$${") return "${";
    if (match === "%%{") return "%{";
    if (name === undefined) throw new Error("the template uses a %{ } directive, which this renderer does not");
    const key = name.trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`the template has an expression: \${${name}}`);
    if (!(key in values)) throw new Error(`vars map does not contain key "${key}"`);
    return values[key];
  });
}

/** The templatefile() call of a resource's argument: the template's path and each variable's expression. */
export function templatefileCall(expression: string): { file: string; vars: Record<string, string> } {
  const m = /^\$\{templatefile\("\$\{path\.module\}\/([^"]+)",\s*\{([\s\S]*)\}\)\}$/.exec(expression.trim());
  if (!m) throw new Error(`not a templatefile("\${path.module}/...", {...}) call: ${expression}`);
  const vars: Record<string, string> = {};
  for (const line of m[2].split("\n")) {
    const kv = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.+?)\s*,?\s*$/.exec(line);
    if (kv) vars[kv[1]] = kv[2];
  }
  return { file: m[1], vars };
}

export type ModuleInputs = {
  dashboard_url: string;
  node_runtime?: string;
  nice?: number;
  splay?: number;
  roots?: { key: string; path: string; agent?: string }[];
  coder_inbox?: boolean;
};
export type WorkspaceIdentity = { id: string; name: string; owner: string; template: string };

/** jsonencode(): objects with their attributes in lexical order, as Terraform writes them. */
function jsonencode(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** What the dashboard's build writes into the module's archive (scripts/build-module.mjs). */
export type RuntimeJson = {
  module_version: string;
  node: { version: string; files: Record<string, { path: string; sha256: string; bytes: number; gzBytes: number }> };
};

/** The module's runtime.json, or what main.tf's try() falls back to where there is none (deploy/coder itself). */
export function readRuntimeJson(moduleDir: string): RuntimeJson {
  const file = path.join(moduleDir, "runtime.json");
  if (!fs.existsSync(file)) return { module_version: "source", node: { version: "", files: {} } };
  return JSON.parse(fs.readFileSync(file, "utf8")) as RuntimeJson;
}

/**
 * The coder_script's script for these inputs, as `terraform apply` would render it from the module in `moduleDir`
 * (deploy/coder, or the archive the dashboard serves, unpacked): each expression of the templatefile() call in
 * main.tf is evaluated here, and an expression this function does not know is an error, so a change to main.tf
 * cannot pass unnoticed.
 */
export async function renderModuleScript(
  inputs: ModuleInputs,
  who: WorkspaceIdentity,
  moduleDir: string = MODULE_DIR,
): Promise<string> {
  const tf = await parseHcl(path.join(moduleDir, "main.tf"));
  const runtime = readRuntimeJson(moduleDir);
  const script = tf.resource!.coder_script!.storage_reporter![0].script as string;
  const call = templatefileCall(script);
  const locals = Object.assign({}, ...(tf.locals ?? [])) as Record<string, string>;
  const variable = (name: string) => tf.variable![name]![0].default;
  const roots = (inputs.roots ?? (variable("roots") as [])).map((r: { agent?: string }) => ({ agent: "other", ...r }));
  const known: Record<string, () => string> = {
    "local.module_directory": () => locals.module_directory,
    "local.dashboard_url": () => inputs.dashboard_url.replace(/\/$/, ""),
    "tostring(var.nice)": () => String(inputs.nice ?? variable("nice")),
    "tostring(var.splay)": () => String(inputs.splay ?? variable("splay")),
    "base64encode(jsonencode(var.roots))": () => Buffer.from(jsonencode(roots)).toString("base64"),
    "data.coder_workspace.me.id": () => who.id,
    "data.coder_workspace.me.name": () => who.name,
    "data.coder_workspace_owner.me.name": () => who.owner,
    "data.coder_workspace.me.template_name": () => who.template,
    "local.runtime.module_version": () => runtime.module_version,
    "var.node_runtime": () => inputs.node_runtime ?? (variable("node_runtime") as string),
    "local.runtime.node.version": () => runtime.node.version,
    'lookup(local.node_sha256, "x64", "")': () => runtime.node.files.x64?.sha256 ?? "",
    'lookup(local.node_sha256, "arm64", "")': () => runtime.node.files.arm64?.sha256 ?? "",
  };
  const values: Record<string, string> = {};
  for (const [name, expression] of Object.entries(call.vars)) {
    const evaluate = known[expression];
    if (!evaluate) throw new Error(`main.tf passes ${name} = ${expression}, which the test does not evaluate`);
    values[name] = evaluate();
  }
  return renderTemplate(fs.readFileSync(path.join(moduleDir, call.file), "utf8"), values);
}

/** What Coder knows of the workspace and its owner: the data sources' attributes the module's coder_env reads. */
export type CoderFacts = { accessUrl: string; ownerEmail: string; sessionToken: string };

/**
 * The agent's environment the module's coder_env resources give, for these inputs, as `terraform apply` would
 * create them: a resource's `count` and each value are evaluated here, and one this function does not know is an
 * error, so a new coder_env cannot pass unnoticed.
 */
export async function renderModuleEnv(
  inputs: ModuleInputs & { enrollment_key: string },
  coder: CoderFacts,
  moduleDir: string = MODULE_DIR,
): Promise<Record<string, string>> {
  const tf = await parseHcl(path.join(moduleDir, "main.tf"));
  const coderInbox = inputs.coder_inbox ?? (tf.variable!.coder_inbox![0].default as boolean);
  const known: Record<string, () => string | boolean | number> = {
    "${var.enrollment_key}": () => inputs.enrollment_key,
    "${data.coder_workspace_owner.me.email}": () => coder.ownerEmail,
    "${data.coder_workspace.me.access_url}": () => coder.accessUrl,
    "${data.coder_workspace_owner.me.session_token}": () => coder.sessionToken,
    "${var.coder_inbox ? 1 : 0}": () => (coderInbox ? 1 : 0),
  };
  const evaluate = (expression: unknown): string | boolean | number => {
    if (typeof expression !== "string" || !known[expression])
      throw new Error(`main.tf's coder_env uses ${String(expression)}, which the test does not evaluate`);
    return known[expression]();
  };
  const env: Record<string, string> = {};
  for (const [resource, [block]] of Object.entries(tf.resource!.coder_env!)) {
    if (block.count !== undefined && evaluate(block.count) === 0) continue;
    if (block.agent_id !== "${var.agent_id}") throw new Error(`coder_env.${resource} is not on the module's agent`);
    env[block.name as string] = String(evaluate(block.value));
  }
  return env;
}

/**
 * In a mount namespace of its own: a tmpfs (an overlay's upper folder cannot sit on overlayfs), an overlay over the
 * folder that holds `node` whose whiteout removes it, then the script as the unprivileged user.
 */
const WITHOUT_NODE = `set -e
node_dir="$(dirname "$(readlink -f "$(command -v node)")")"
mount -t tmpfs tmpfs "$1"
mkdir "$1/upper" "$1/work"
mknod "$1/upper/node" c 0 0
mount -t overlay overlay -o "lowerdir=$node_dir,upperdir=$1/upper,workdir=$1/work" "$node_dir"
if command -v node > /dev/null; then echo "node is still there: $(command -v node)" >&2; exit 99; fi
exec setpriv --reuid=65534 --regid=65534 --clear-groups "$2"`;

/** The user the Coder agent runs scripts as in these tests: nobody, not root. */
export const WORKSPACE_UID = 65534;

/**
 * Runs a rendered script as the Coder agent does (written to a file and executed: its shebang picks bash) with
 * only the given environment, and collects what it prints. `as: "workspace user"` runs it as an unprivileged
 * user (which needs root here: the caller owns `dir` to it); `withoutNode` also hides Node.js from it, as on an
 * image without it (Coder's base image).
 */
export function runScript(
  script: string,
  env: Record<string, string>,
  dir: string,
  opts: { as?: "workspace user"; withoutNode?: boolean } = {},
): Promise<{ code: number | null; output: string }> {
  const file = path.join(dir, "coder-script.sh");
  fs.writeFileSync(file, script, { mode: 0o755 });
  const [command, args] = opts.withoutNode
    ? [
        "unshare",
        [
          "-m",
          "--propagation",
          "private",
          "bash",
          "-c",
          WITHOUT_NODE,
          "_",
          fs.mkdtempSync(path.join(dir, "overlay-")),
          file,
        ],
      ]
    : opts.as
      ? ["setpriv", [`--reuid=${WORKSPACE_UID}`, `--regid=${WORKSPACE_UID}`, "--clear-groups", file]]
      : [file, []];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d));
    child.stderr.on("data", (d: Buffer) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
