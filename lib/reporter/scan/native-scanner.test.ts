import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nativeScanner, type EmbeddedScanner } from "./native-scanner";

let tmp: string;
const embed = (text: string): EmbeddedScanner => {
  const bytes = Buffer.from(`#!/bin/sh\necho ${text}\n`);
  return {
    base64: zlib.gzipSync(bytes).toString("base64"),
    arch: process.arch,
    sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
  };
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-native-"));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the embedded native scanner", () => {
  it("is installed once in the state folder, runnable by its owner alone, and an update replaces it", () => {
    const state = path.join(tmp, "state");
    const first = nativeScanner(state, { embedded: embed("one") })!;
    expect(path.dirname(first)).toBe(path.join(state, "bin"));
    expect(fs.statSync(first).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(first, "utf8")).toBe("#!/bin/sh\necho one\n");
    // the next run finds it in place and leaves it alone
    const before = new Date("2026-01-01T00:00:00Z");
    fs.utimesSync(first, before, before);
    expect(nativeScanner(state, { embedded: embed("one") })).toBe(first);
    expect(fs.statSync(first).mtimeMs).toBe(before.getTime());
    // altered, it is written again
    fs.writeFileSync(first, "#!/bin/sh\necho altered\n");
    expect(nativeScanner(state, { embedded: embed("one") })).toBe(first);
    expect(fs.readFileSync(first, "utf8")).toBe("#!/bin/sh\necho one\n");
    // a link to the same bytes elsewhere, or a copy others may write, is not run: it is written again
    const elsewhere = path.join(tmp, "elsewhere");
    fs.copyFileSync(first, elsewhere);
    fs.rmSync(first);
    fs.symlinkSync(elsewhere, first);
    expect(nativeScanner(state, { embedded: embed("one") })).toBe(first);
    expect(fs.lstatSync(first).isSymbolicLink()).toBe(false);
    fs.chmodSync(first, 0o720);
    expect(nativeScanner(state, { embedded: embed("one") })).toBe(first);
    expect(fs.statSync(first).mode & 0o777).toBe(0o700);
    // a new version takes the place of the old one
    const second = nativeScanner(state, { embedded: embed("two") })!;
    expect(second).not.toBe(first);
    expect(fs.readdirSync(path.join(state, "bin"))).toEqual([path.basename(second)]);
  });

  it("in a dry run, is a temporary copy outside the state folder unless already installed", () => {
    const state = path.join(tmp, "dry-state");
    const copy = nativeScanner(state, { embedded: embed("dry"), dryRun: true })!;
    expect(copy.startsWith(os.tmpdir())).toBe(true);
    expect(fs.readFileSync(copy, "utf8")).toBe("#!/bin/sh\necho dry\n");
    expect(fs.existsSync(state)).toBe(false);
    const installed = nativeScanner(state, { embedded: embed("dry") })!;
    expect(nativeScanner(state, { embedded: embed("dry"), dryRun: true })).toBe(installed);
  });

  it("is none where the bundle has none, for another architecture, or where it cannot be written", () => {
    expect(nativeScanner(path.join(tmp, "s1"), { embedded: null })).toBeNull();
    const other = { ...embed("x"), arch: process.arch === "arm64" ? "x64" : "arm64" };
    expect(nativeScanner(path.join(tmp, "s2"), { embedded: other })).toBeNull();
    const file = path.join(tmp, "a-file");
    fs.writeFileSync(file, "");
    expect(nativeScanner(path.join(file, "state"), { embedded: embed("x") })).toBeNull();
  });
});
