// The native scanner (lib/reporter/scan/native/scan.c) travels inside the bundle: scripts/build-reporter.mjs
// compiles it into a static Linux executable and puts it here, gzipped and in base64, with the architecture it
// runs on. A run installs it once in the state folder (bin/scan-<digest>) and runs it from there; a dry run,
// which writes nothing there, runs a copy in a private temporary folder removed at exit. Where there is none
// (a build without a C compiler, another architecture, nowhere to write it) the reporter measures with find;
// where it cannot run (a home mounted noexec, say) the scan falls back to find.

import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { ensureDir, writeAtomic } from "../state";

// Replaced by the bundler (esbuild's define); undeclared where the sources run directly (tests): no scanner.
declare const __NATIVE_SCANNER__: string | undefined;
declare const __NATIVE_SCANNER_ARCH__: string | undefined;

export type EmbeddedScanner = { base64: string; arch: string };

const EMBEDDED: EmbeddedScanner | null =
  typeof __NATIVE_SCANNER__ === "string" && typeof __NATIVE_SCANNER_ARCH__ === "string"
    ? { base64: __NATIVE_SCANNER__, arch: __NATIVE_SCANNER_ARCH__ }
    : null;

const PREFIX = "scan-";

/** The native scanner's path, installed under `stateDir` when it is not there yet; null where there is none. */
export function nativeScanner(
  stateDir: string,
  opts: { dryRun?: boolean; embedded?: EmbeddedScanner | null } = {},
): string | null {
  const embedded = opts.embedded === undefined ? EMBEDDED : opts.embedded;
  if (!embedded || process.platform !== "linux" || process.arch !== embedded.arch) return null;
  try {
    const bytes = zlib.gunzipSync(Buffer.from(embedded.base64, "base64"));
    const name = PREFIX + crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 16);
    const dir = path.join(stateDir, "bin");
    const installed = path.join(dir, name);
    if (sameContent(installed, bytes)) return installed;
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
 * Whether `file` holds `bytes` and may be run: a regular file (not a link to one) of this user's, that only it
 * may write (anything else is written again).
 */
function sameContent(file: string, bytes: Buffer): boolean {
  try {
    const st = fs.lstatSync(file);
    return (
      st.isFile() &&
      st.uid === process.getuid?.() &&
      (st.mode & 0o122) === 0o100 &&
      st.size === bytes.length &&
      fs.readFileSync(file).equals(bytes)
    );
  } catch {
    return false;
  }
}
