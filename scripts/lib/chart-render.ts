// Renders the Helm chart in deploy/helm/coder-storage without Helm, for the tests and for the plain manifest made
// from it (scripts/render-chart.ts). Helm is not on every machine that runs the tests, and no maintained npm package
// renders Go templates with Helm's functions (@ctrl/golang-template has no pipelines nor functions; the Go-in-WASM
// wrapper has Go's engine but none of Helm's functions). So the chart keeps to this subset, and this renders it:
//
// - text and actions `{{ … }}`, with `{{-` / `-}}` trimming the whitespace beside them, and comments `{{/* … */}}`;
// - `if` / `else if` / `else`, `with` (with `else`), `range` over a list (`.` is the item), `define` and `include`;
// - operands `.a.b`, `$` and `$.a.b` (the root), `.`, "strings", numbers, true, false, and `( pipelines )`;
// - pipelines `a | f b`, the value passed as the last argument, as Go does;
// - functions default, required, quote, toYaml, nindent, indent, printf (%s, %d), first, int, eq, ne, gt, and, or, not.
//
// Anything else is an error naming it, so a template the subset cannot render fails the tests rather than
// rendering wrong. Where Helm is installed, the chart's test also compares with `helm template`.
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml, stringify } from "yaml";

type Pipe = Cmd[];
type Cmd = Arg[];
type Arg =
  | { k: "field"; root: boolean; path: string[] }
  | { k: "lit"; v: unknown }
  | { k: "fn"; name: string }
  | { k: "sub"; pipe: Pipe };
type Node = { t: "text"; s: string } | { t: "out"; pipe: Pipe } | Branch | { t: "range"; pipe: Pipe; body: Node[] };
type Branch = { t: "if" | "with"; pipe: Pipe; then: Node[]; else: Node[] };

type Scope = { dot: unknown; root: unknown; defines: Map<string, Node[]> };

/** Go templates' truth: false, 0, nil, "" and empty lists and maps are false. */
function truthy(v: unknown): boolean {
  if (v == null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

function lexPipe(src: string): Pipe {
  const tokens = src.match(/"(?:[^"\\]|\\.)*"|\(|\)|\||[^\s()|]+/g) ?? [];
  let i = 0;
  const pipe = (): Pipe => {
    const cmds: Pipe = [[]];
    while (i < tokens.length && tokens[i] !== ")") {
      const tok = tokens[i++];
      if (tok === "|") cmds.push([]);
      else if (tok === "(") {
        cmds[cmds.length - 1].push({ k: "sub", pipe: pipe() });
        if (tokens[i++] !== ")") throw new Error(`unclosed ( in {{ ${src} }}`);
      } else cmds[cmds.length - 1].push(operand(tok));
    }
    if (cmds.some((c) => c.length === 0)) throw new Error(`empty command in {{ ${src} }}`);
    return cmds;
  };
  const result = pipe();
  if (i < tokens.length) throw new Error(`unexpected ) in {{ ${src} }}`);
  return result;
}

function operand(tok: string): Arg {
  if (tok.startsWith('"')) return { k: "lit", v: JSON.parse(tok) };
  if (/^-?\d+(\.\d+)?$/.test(tok)) return { k: "lit", v: Number(tok) };
  if (tok === "true" || tok === "false") return { k: "lit", v: tok === "true" };
  if (tok === "." || tok === "$") return { k: "field", root: tok === "$", path: [] };
  if (tok.startsWith(".") || tok.startsWith("$.")) {
    return { k: "field", root: tok.startsWith("$"), path: tok.replace(/^\$?\./, "").split(".") };
  }
  if (!(tok in FUNCS)) throw new Error(`the chart renderer has no function "${tok}"`);
  return { k: "fn", name: tok };
}

/** The template's tree; `define`d templates go into `defines`. */
function parseTemplate(src: string, defines: Map<string, Node[]>): Node[] {
  const parts = src.split(/(\{\{-?\s*(?:\/\*[\s\S]*?\*\/|[\s\S]*?)\s*-?\}\})/);
  // Trim markers first: `{{-` eats the whitespace before it, `-}}` the whitespace after it.
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i].startsWith("{{-")) parts[i - 1] = parts[i - 1].replace(/\s+$/, "");
    if (parts[i].endsWith("-}}")) parts[i + 1] = parts[i + 1].replace(/^\s+/, "");
  }
  type Frame = {
    node: Branch | { t: "range"; body: Node[] } | { t: "define"; name: string; body: Node[] };
    into: Node[];
  };
  const top: Node[] = [];
  const stack: Frame[] = [];
  let into = top;
  for (let i = 0; i < parts.length; i++) {
    if (i % 2 === 0) {
      if (parts[i]) into.push({ t: "text", s: parts[i] });
      continue;
    }
    const body = parts[i].replace(/^\{\{-?\s*/, "").replace(/\s*-?\}\}$/, "");
    const [word, ...rest] = body.split(/\s+/);
    const arg = rest.join(" ");
    if (body.startsWith("/*")) continue;
    if (word === "if" || word === "with") {
      const node: Branch = { t: word, pipe: lexPipe(arg), then: [], else: [] };
      into.push(node);
      stack.push({ node, into });
      into = node.then;
    } else if (word === "range") {
      const node = { t: "range" as const, pipe: lexPipe(arg), body: [] as Node[] };
      into.push(node);
      stack.push({ node, into });
      into = node.body;
    } else if (word === "define") {
      const node = { t: "define" as const, name: JSON.parse(arg) as string, body: [] as Node[] };
      stack.push({ node, into });
      into = node.body;
    } else if (word === "else") {
      const frame = stack.at(-1);
      if (frame?.node.t !== "if" && frame?.node.t !== "with") throw new Error("else outside if or with");
      if (rest[0] === "if") {
        // `else if` is an `if` inside the else branch, closed by the same `end`.
        const inner: Branch = { t: "if", pipe: lexPipe(rest.slice(1).join(" ")), then: [], else: [] };
        frame.node.else.push(inner);
        frame.node = inner;
        into = inner.then;
      } else into = frame.node.else;
    } else if (word === "end") {
      const frame = stack.pop();
      if (!frame) throw new Error("end without a block");
      if (frame.node.t === "define") defines.set(frame.node.name, frame.node.body);
      into = frame.into;
      // An `else if` chain pushed nothing of its own: one `end` closes it.
    } else into.push({ t: "out", pipe: lexPipe(body) });
  }
  if (stack.length) throw new Error(`unclosed ${stack.at(-1)!.node.t}`);
  return top;
}

function lookup(v: unknown, keys: string[]): unknown {
  return keys.reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), v);
}

function goString(v: unknown): string {
  if (v == null) return "";
  if (typeof v === "object") throw new Error(`cannot print a ${Array.isArray(v) ? "list" : "map"}: use toYaml`);
  return String(v);
}

function indentBy(n: number, s: string): string {
  return s
    .split("\n")
    .map((line) => " ".repeat(n) + line)
    .join("\n");
}

const FUNCS: Record<string, (scope: Scope, ...args: unknown[]) => unknown> = {
  default: (_, fallback, v) => (truthy(v) ? v : fallback),
  required: (_, message, v) => {
    if (v == null || v === "") throw new Error(String(message));
    return v;
  },
  quote: (_, v) => JSON.stringify(goString(v)),
  // Helm's toYaml: keys sorted (Go's maps), no trailing newline.
  toYaml: (_, v) => stringify(v, { sortMapEntries: true, lineWidth: 0 }).trimEnd(),
  nindent: (_, n, s) => "\n" + indentBy(Number(n), goString(s)),
  indent: (_, n, s) => indentBy(Number(n), goString(s)),
  printf: (_, format, ...args) => {
    let i = 0;
    return String(format).replace(/%[sd]/g, () => goString(args[i++]));
  },
  first: (_, list) => (Array.isArray(list) ? list[0] : undefined),
  int: (_, v) => Math.trunc(Number(v ?? 0)),
  eq: (_, a, b) => a === b,
  ne: (_, a, b) => a !== b,
  gt: (_, a, b) => Number(a) > Number(b),
  and: (_, ...args) => args.find((a) => !truthy(a)) ?? args.at(-1),
  or: (_, ...args) => args.find((a) => truthy(a)) ?? args.at(-1),
  not: (_, v) => !truthy(v),
  include: (scope, name, dot) => {
    const body = scope.defines.get(String(name));
    if (!body) throw new Error(`no template named "${name}"`);
    // Inside a defined template, `$` is what it was given.
    return renderNodes(body, { ...scope, dot, root: dot });
  },
};

function evalArg(a: Arg, scope: Scope): unknown {
  if (a.k === "lit") return a.v;
  if (a.k === "field") return lookup(a.root ? scope.root : scope.dot, a.path);
  if (a.k === "sub") return evalPipe(a.pipe, scope);
  return FUNCS[a.name](scope);
}

function evalPipe(pipe: Pipe, scope: Scope): unknown {
  let value: unknown;
  pipe.forEach((cmd, i) => {
    const piped = i > 0 ? [value] : [];
    const [head, ...args] = cmd;
    if (head.k === "fn") value = FUNCS[head.name](scope, ...args.map((a) => evalArg(a, scope)), ...piped);
    else if (args.length || piped.length) throw new Error("only a function takes arguments");
    else value = evalArg(head, scope);
  });
  return value;
}

function renderNodes(nodes: Node[], scope: Scope): string {
  let out = "";
  for (const n of nodes) {
    if (n.t === "text") out += n.s;
    else if (n.t === "out") out += goString(evalPipe(n.pipe, scope));
    else if (n.t === "if") out += renderNodes(truthy(evalPipe(n.pipe, scope)) ? n.then : n.else, scope);
    else if (n.t === "with") {
      const v = evalPipe(n.pipe, scope);
      out += truthy(v) ? renderNodes(n.then, { ...scope, dot: v }) : renderNodes(n.else, scope);
    } else if (n.t === "range") {
      const list = evalPipe(n.pipe, scope) ?? [];
      if (!Array.isArray(list)) throw new Error("range over something that is not a list");
      for (const item of list) out += renderNodes(n.body, { ...scope, dot: item });
    }
  }
  return out;
}

type Values = Record<string, unknown>;

/** Helm's merge of values: maps merge key by key, anything else (lists too) replaces. */
function mergeValues(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    const isMap = (x: unknown): x is Values => x != null && typeof x === "object" && !Array.isArray(x);
    out[k] = isMap(b) && isMap(v) ? mergeValues(b, v) : v;
  }
  return out;
}

export type RenderOptions = { values?: Values; releaseName?: string; namespace?: string };

/** Every template of the chart rendered, by file name (`templates/x.yaml`); partials (`_*.tpl`) are not output. */
export function renderChart(chartDir: string, opts: RenderOptions = {}): Map<string, string> {
  const chart = parseYaml(fs.readFileSync(path.join(chartDir, "Chart.yaml"), "utf8")) as Values;
  const defaults = parseYaml(fs.readFileSync(path.join(chartDir, "values.yaml"), "utf8")) as Values;
  const root = {
    Values: mergeValues(defaults, opts.values ?? {}),
    // Helm names Chart.yaml's fields with a capital first letter.
    Chart: Object.fromEntries(Object.entries(chart).map(([k, v]) => [k[0].toUpperCase() + k.slice(1), v])),
    Release: { Name: opts.releaseName ?? "release-name", Namespace: opts.namespace ?? "default", Service: "Helm" },
  };
  const defines = new Map<string, Node[]>();
  const dir = path.join(chartDir, "templates");
  const files = fs.readdirSync(dir).sort();
  const trees = new Map<string, Node[]>();
  for (const f of files) trees.set(f, parseTemplate(fs.readFileSync(path.join(dir, f), "utf8"), defines));
  const out = new Map<string, string>();
  for (const [f, tree] of trees) {
    if (f.startsWith("_") || !f.endsWith(".yaml")) continue;
    try {
      out.set(`templates/${f}`, renderNodes(tree, { dot: root, root, defines }));
    } catch (err) {
      throw new Error(`templates/${f}: ${(err as Error).message}`);
    }
  }
  return out;
}
