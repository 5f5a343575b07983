// The native scanner (lib/reporter/scan/native/scan.c) travels inside the bundle: scripts/build-reporter.mjs
// compiles it into a static Linux executable and puts it here, gzipped and in base64, with the architecture it
// runs on. A run installs it once in the state folder (bin/scan-<digest>) and runs it from there; a dry run,
// which writes nothing there, runs a copy in a private temporary folder removed at exit. Where there is none
// (a build without a C compiler, another architecture, nowhere to write it) the reporter measures with find;
// where it cannot run (a home mounted noexec, say) the scan falls back to find.

import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { ensureDir, writeAtomic } from "../state";

// Replaced by the bundler (esbuild's define); undeclared where the sources run directly (tests): no scanner.
declare const __NATIVE_SCANNER__: string | undefined;
declare const __NATIVE_SCANNER_ARCH__: string | undefined;
declare const __NATIVE_SCANNER_SHA256__: string | undefined;

/** The scanner gzipped in base64, the architecture it runs on, and the SHA-256 of its bytes (hex). */
export type EmbeddedScanner = { base64: string; arch: string; sha256: string };

const EMBEDDED: EmbeddedScanner | null =
  typeof __NATIVE_SCANNER__ === "string" &&
  typeof __NATIVE_SCANNER_ARCH__ === "string" &&
  typeof __NATIVE_SCANNER_SHA256__ === "string"
    ? { base64: __NATIVE_SCANNER__, arch: __NATIVE_SCANNER_ARCH__, sha256: __NATIVE_SCANNER_SHA256__ }
    : null;

// zlib only where the scanner is written (the first run, a dry run): loading it costs every run's start a few ms.
const load = createRequire(import.meta.url);
const gunzip = (base64: string): Buffer =>
  (load("node:zlib") as typeof import("node:zlib")).gunzipSync(Buffer.from(base64, "base64"));

const PREFIX = "scan-";

/** The native scanner's path, installed under `stateDir` when it is not there yet; null where there is none. */
export function nativeScanner(
  stateDir: string,
  opts: { dryRun?: boolean; embedded?: EmbeddedScanner | null } = {},
): string | null {
  const embedded = opts.embedded === undefined ? EMBEDDED : opts.embedded;
  if (!embedded || process.platform !== "linux" || process.arch !== embedded.arch) return null;
  try {
    const name = PREFIX + embedded.sha256.slice(0, 16);
    const dir = path.join(stateDir, "bin");
    const installed = path.join(dir, name);
    if (sameContent(installed, embedded.sha256)) return installed;
    const bytes = gunzip(embedded.base64);
    if (opts.dryRun) {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "storage-reporter-"));
      process.once("exit", () => fs.rmSync(tmp, { recursive: true, force: true }));
      fs.writeFileSync(path.join(tmp, name), bytes, { mode: 0o700 });
      return path.join(tmp, name);
    }
    ensureDir(dir);
    writeAtomic(installed, bytes, 0o700);
    // the copies of earlier versions
    for (const other of fs.readdirSync(dir))
      if (other.startsWith(PREFIX) && other !== name) fs.rmSync(path.join(dir, other), { force: true });
    return installed;
  } catch {
    return null;
  }
}

/**
 * Whether `file` holds the bytes whose SHA-256 is `sha256` and may be run: a regular file (not a link to one)
 * of this user's, that only it may write (anything else is written again).
 */
function sameContent(file: string, sha256: string): boolean {
  try {
    const st = fs.lstatSync(file);
    return (
      st.isFile() &&
      st.uid === process.getuid?.() &&
      (st.mode & 0o122) === 0o100 &&
      crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex") === sha256
    );
  } catch {
    return false;
  }
}
