// Bundles the workspace reporter into one self-contained file that Node 18 or newer runs:
//   node scripts/build-reporter.mjs [outfile]      (default public/reporter.mjs, served at GET /reporter.mjs)
// Beside it, <outfile>.sha256 in sha256sum's format (served at GET /reporter.mjs.sha256): the registry module's
// script checks a download against it before it replaces the reporter a workspace runs.
import { build } from "esbuild";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The only packages bundled into the reporter: the parsers of the agents' settings files (TOML for Codex, JSON with
// comments for Gemini CLI and OpenCode), both small and without dependencies of their own.
const BUNDLED = ["smol-toml", "jsonc-parser"];

export async function buildReporter(outfile = path.join(root, "public", "reporter.mjs")) {
  const result = await build({
    entryPoints: [path.join(root, "lib", "reporter", "cli.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node18",
    format: "esm",
    alias: { "@": root },
    // No runtime dependencies: anything outside Node's built-ins must be bundled, and only BUNDLED may be.
    external: [],
    // jsonc-parser's "main" is a UMD build whose dynamic requires an ES module cannot run: take its ES build.
    mainFields: ["module", "main"],
    legalComments: "none",
    minifySyntax: true,
    banner: { js: "// Coder storage reporter (bundled by scripts/build-reporter.mjs; do not edit)" },
    logLevel: "warning",
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  const bad = inputs.filter(
    (f) => f.includes("node_modules") && !BUNDLED.some((p) => f.includes(`node_modules/${p}/`)),
  );
  if (bad.length) throw new Error(`the reporter must have no runtime dependencies, but bundles: ${bad.join(", ")}`);
  const digest = crypto.createHash("sha256").update(fs.readFileSync(outfile)).digest("hex");
  fs.writeFileSync(`${outfile}.sha256`, `${digest}  ${path.basename(outfile)}\n`);
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildReporter(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`built ${path.relative(process.cwd(), out)}`);
}
