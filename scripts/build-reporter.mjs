// Bundles the workspace reporter into one self-contained file that Node 18 or newer runs:
//   node scripts/build-reporter.mjs [outfile]      (default public/reporter.mjs, served at GET /reporter.mjs)
// Beside it, <outfile>.sha256 in sha256sum's format (served at GET /reporter.mjs.sha256): the registry module's
// script checks a download against it before it replaces the reporter a workspace runs.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

// The only packages bundled into the reporter: the parsers of the agents' settings files (TOML for Codex, JSON with
// comments for Gemini CLI and OpenCode), both small and without dependencies of their own, and the agents that
// tunnel through a workspace's proxy (loaded only when one is set; their `debug` is replaced by a silent stub).
const BUNDLED = ["smol-toml", "jsonc-parser", "https-proxy-agent", "http-proxy-agent", "agent-base"];

const SCANNER_SOURCE = path.join(root, "lib", "reporter", "scan", "native", "scan.c");

/**
 * The native scanner (lib/reporter/scan/native/scan.c) as a static Linux executable: with musl (38 KB), else with the
 * system's C library (700 KB), else null (no compiler: the reporter measures with find). Where the native
 * scanner is required (CI), STORAGE_REPORTER_NATIVE=required makes its absence an error.
 */
export function compileScanner() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-scan-"));
  try {
    const out = path.join(dir, "scan");
    for (const cc of ["musl-gcc", "cc"]) {
      const r = spawnSync(cc, ["-O2", "-static", "-s", "-Wall", "-o", out, SCANNER_SOURCE], { encoding: "utf8" });
      if (r.status === 0) return fs.readFileSync(out);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (process.env.STORAGE_REPORTER_NATIVE === "required") throw new Error("the native scanner did not compile");
  console.warn("reporter: no C compiler (musl-gcc or cc): built without the native scanner; it measures with find");
  return null;
}

/**
 * jsonc-parser's formatter and editor, which the reporter never calls, dropped: their module builds tables of
 * indentation strings when it loads (about 3 ms of every run's start on Node 22), and the package does not declare
 * its modules free of side effects, so the bundler would keep them.
 */
const withoutUnusedJsoncParts = {
  name: "without-unused-jsonc-parts",
  setup(b) {
    b.onResolve({ filter: /^\.\/impl\/(format|edit|string-intern)$|^\.\/(format|string-intern)$/ }, (args) =>
      args.importer.includes(`${path.sep}jsonc-parser${path.sep}`)
        ? { path: path.join(args.resolveDir, `${args.path}.js`), sideEffects: false }
        : undefined,
    );
  },
};

export async function buildReporter(outfile = path.join(root, "public", "reporter.mjs")) {
  const scanner = compileScanner();
  const result = await build({
    // the native scanner, gzipped, for lib/reporter/scan/native-scanner.ts
    define: scanner
      ? {
          __NATIVE_SCANNER__: JSON.stringify(zlib.gzipSync(scanner, { level: 9 }).toString("base64")),
          __NATIVE_SCANNER_ARCH__: JSON.stringify(process.arch),
          __NATIVE_SCANNER_SHA256__: JSON.stringify(crypto.createHash("sha256").update(scanner).digest("hex")),
        }
      : {},
    entryPoints: [path.join(root, "lib", "reporter", "cli", "entry.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node18",
    format: "esm",
    alias: { "@": root, debug: path.join(root, "lib", "reporter", "send", "quiet-debug.ts") },
    // No runtime dependencies: anything outside Node's built-ins must be bundled, and only BUNDLED may be.
    external: [],
    // jsonc-parser's "main" is a UMD build whose dynamic requires an ES module cannot run: take its ES build.
    mainFields: ["module", "main"],
    legalComments: "none",
    minifySyntax: true,
    // The proxy agents are CommonJS and require Node's built-ins, which an ES module can only do through this.
    banner: {
      js: [
        "// Coder storage reporter (bundled by scripts/build-reporter.mjs; do not edit)",
        'import { createRequire as __createRequire } from "node:module";',
        "const require = __createRequire(import.meta.url);",
      ].join("\n"),
    },
    logLevel: "warning",
    metafile: true,
    plugins: [withoutUnusedJsoncParts],
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
