// The import graph of the repository's own files, type-only imports included (import-x/no-cycle skips them, so it
// cannot see a loop closed by a type). Read with the TypeScript compiler's parser and resolver, the same
// resolution `tsc` uses (tsconfig.json's paths, the bundler rules), so every import counts once whatever its form.
import path from "node:path";
import ts from "typescript";

export type Edge = { from: string; to: string; typeOnly: boolean };

/** The compiler options of tsconfig.json in `root`, for resolving `@/…` and relative imports. */
function compilerOptions(root: string): ts.CompilerOptions {
  const file = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(file.config, ts.sys, root).options;
}

type Specifier = { text: string; typeOnly: boolean };

/** Every module a file names: static imports and re-exports, `import type`, `import("…")` and `typeof import("…")`. */
function specifiers(source: ts.SourceFile): Specifier[] {
  const found: Specifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const namedTypes =
        clause?.namedBindings &&
        ts.isNamedImports(clause.namedBindings) &&
        !clause.name &&
        clause.namedBindings.elements.length > 0 &&
        clause.namedBindings.elements.every((element) => element.isTypeOnly);
      found.push({ text: node.moduleSpecifier.text, typeOnly: Boolean(clause?.isTypeOnly || namedTypes) });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ text: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push({ text: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ text: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The edges between `files` (paths relative to `root`): imports that resolve to another of them. */
export function importEdges(root: string, files: string[]): Edge[] {
  const options = compilerOptions(root);
  const known = new Set(files);
  const edges: Edge[] = [];
  for (const file of files) {
    const absolute = path.join(root, file);
    const text = ts.sys.readFile(absolute) ?? "";
    const source = ts.createSourceFile(absolute, text, ts.ScriptTarget.Latest, false, scriptKind(file));
    for (const specifier of specifiers(source)) {
      const resolved = ts.resolveModuleName(specifier.text, absolute, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.relative(root, resolved.resolvedFileName);
      if (known.has(target) && target !== file) edges.push({ from: file, to: target, typeOnly: specifier.typeOnly });
    }
  }
  return edges;
}

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (/\.[cm]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/**
 * The import cycles: the strongly connected components of more than one file (Tarjan's algorithm), each a list
 * of files. A cycle is counted once however many loops run through it.
 */
export function importCycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}
