// Bundles the workspace reporter into one self-contained file that Node 18 or newer runs:
//   node scripts/build-reporter.mjs [outfile]      (default public/reporter.mjs, served at GET /reporter.mjs)
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export async function buildReporter(outfile = path.join(root, "public", "reporter.mjs")) {
  const result = await build({
    entryPoints: [path.join(root, "lib", "reporter", "cli.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node18",
    format: "esm",
    alias: { "@": root },
    // No runtime dependencies: anything outside Node's built-ins must be bundled, and zod must not be.
    external: [],
    legalComments: "none",
    minifySyntax: true,
    banner: { js: "// Coder storage reporter (bundled by scripts/build-reporter.mjs; do not edit)" },
    logLevel: "warning",
    metafile: true,
  });
  const inputs = Object.keys(result.metafile.inputs);
  const bad = inputs.filter((f) => f.includes("node_modules"));
  if (bad.length) throw new Error(`the reporter must have no runtime dependencies, but bundles: ${bad.join(", ")}`);
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildReporter(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`built ${path.relative(process.cwd(), out)}`);
}
