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
  nice?: number;
  splay?: number;
  roots?: { key: string; path: string; agent?: string }[];
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

/**
 * The coder_script's script for these inputs, as `terraform apply` would render it: each expression of the
 * templatefile() call in main.tf is evaluated here, and an expression this function does not know is an error,
 * so a change to main.tf cannot pass unnoticed.
 */
export async function renderModuleScript(inputs: ModuleInputs, who: WorkspaceIdentity): Promise<string> {
  const tf = await parseHcl(path.join(MODULE_DIR, "main.tf"));
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
  };
  const values: Record<string, string> = {};
  for (const [name, expression] of Object.entries(call.vars)) {
    const evaluate = known[expression];
    if (!evaluate) throw new Error(`main.tf passes ${name} = ${expression}, which the test does not evaluate`);
    values[name] = evaluate();
  }
  return renderTemplate(fs.readFileSync(path.join(MODULE_DIR, call.file), "utf8"), values);
}

/**
 * Runs a rendered script as the Coder agent does (written to a file and executed: its shebang picks bash) with
 * only the given environment, and collects what it prints.
 */
export function runScript(
  script: string,
  env: Record<string, string>,
  dir: string,
): Promise<{ code: number | null; output: string }> {
  const file = path.join(dir, "coder-script.sh");
  fs.writeFileSync(file, script, { mode: 0o755 });
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], {
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
