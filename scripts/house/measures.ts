// The figures `npm run house` reports besides the import graph, each rule pinned here so that two people get the
// same number: the scope of each, the tool and its options.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ESLint } from "eslint";
import tsParser from "@typescript-eslint/parser";
import ts from "typescript";
import type { Edge } from "./imports";

/** Functions, files and duplicates are counted over these folders' TypeScript; tests are left out. */
export const MEASURED = ["app", "components", "lib", "scripts"];
export const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith("tests/");
const isTypeScript = (file: string) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts");
export const measured = (file: string) =>
  isTypeScript(file) && MEASURED.some((folder) => file.startsWith(`${folder}/`)) && !isTest(file);

export const FUNCTION_MAX_LINES = 80;
export const FILE_MAX_LINES = 300;

/**
 * Functions over 80 lines: ESLint's `max-lines-per-function` with `max: 80` and its other options at their
 * defaults (blank lines and comments count, IIFEs do not), on the TypeScript parser alone.
 */
export async function longFunctions(root: string, files: string[]): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts", "**/*.tsx"],
        languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } },
        linterOptions: { reportUnusedDisableDirectives: "off" },
        rules: { "max-lines-per-function": ["error", { max: FUNCTION_MAX_LINES }] },
      },
    ],
    allowInlineConfig: false,
  });
  const results = await eslint.lintFiles(files.filter(measured));
  return results.flatMap((result) =>
    result.messages
      .filter((message) => message.ruleId === "max-lines-per-function")
      .map((message) => `${path.relative(root, result.filePath)}:${message.line}`),
  );
}

/** Files over 300 lines, counted as `wc -l` counts them (newline characters). */
export function longFiles(root: string, files: string[]): string[] {
  return files.filter(measured).flatMap((file) => {
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n").length - 1;
    return lines > FILE_MAX_LINES ? [`${file} (${lines})`] : [];
  });
}

/** The catalog's data: lists of agents' folders and recipes, alike by nature. */
const CATALOG_DATA = ["lib/catalog/agent-data/", "lib/catalog/recipe-data/"];

/**
 * Duplicate blocks: jscpd (pinned in package.json) with `--min-lines 6 --min-tokens 50 --mode mild`, exact
 * clones only, over the measured files less the catalog's data. Each block is counted once, in the folder (a
 * top-level folder, or lib/<x>) of each of its copies.
 */
export function duplicateBlocks(root: string, files: string[]): { total: number; byFolder: Map<string, number> } {
  const scanned = files.filter((file) => measured(file) && !CATALOG_DATA.some((data) => file.startsWith(data)));
  const output = fs.mkdtempSync(path.join(os.tmpdir(), "house-jscpd-"));
  try {
    execFileSync(
      path.join(root, "node_modules", ".bin", "jscpd"),
      [
        ...["--min-lines", "6", "--min-tokens", "50", "--mode", "mild", "--kind", "exact"],
        ...["--format", "typescript,tsx", "--reporters", "json", "--output", output, "--no-gitignore", "--absolute"],
        ...scanned,
      ],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"], maxBuffer: 64 * 1024 * 1024 },
    );
    const report = JSON.parse(fs.readFileSync(path.join(output, "jscpd-report.json"), "utf8")) as {
      duplicates: { firstFile: { name: string }; secondFile: { name: string } }[];
    };
    const byFolder = new Map<string, number>();
    for (const clone of report.duplicates) {
      const folders = new Set([clone.firstFile.name, clone.secondFile.name].map((name) => folderOf(root, name)));
      for (const folder of folders) byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
    }
    return { total: report.duplicates.length, byFolder };
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
}

function folderOf(root: string, name: string): string {
  const parts = path.relative(root, name).split(path.sep);
  return parts[0] === "lib" && parts.length > 2 ? `lib/${parts[1]}` : parts[0];
}

/** Calls of `rowsOf` (lib/db/types.ts), in every TypeScript file of the repository, tests included. */
export function rowsOfCalls(root: string, files: string[]): string[] {
  const calls: string[] = [];
  for (const file of files.filter(isTypeScript)) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    if (!text.includes("rowsOf")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "rowsOf")
        calls.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

/**
 * Test-only files under lib/: files (not tests) that a test imports, directly or through other files, but that
 * no program reaches. The programs start at every file outside lib/ that is not a test (app, components,
 * scripts, the root's files) and at the reporter's bundle entry; the walk never passes through a test.
 */
export function testOnlyFiles(files: string[], edges: Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const reach = (starts: string[]): Set<string> => {
    const seen = new Set(starts);
    const queue = [...starts];
    for (let file = queue.pop(); file !== undefined; file = queue.pop())
      for (const target of next.get(file) ?? [])
        if (!seen.has(target) && !isTest(target)) {
          seen.add(target);
          queue.push(target);
        }
    return seen;
  };
  const programs = reach(
    files.filter((file) => !isTest(file) && !file.startsWith("lib/")).concat("lib/reporter/cli/entry.ts"),
  );
  const fromTests = reach(files.filter(isTest));
  return [...fromTests].filter((file) => file.startsWith("lib/") && !isTest(file) && !programs.has(file)).sort();
}
