// A delete removes read-only folders too, as the workspace's user (not root, who may write anywhere): Go's
// module cache is made of 0555 folders, which neither rm nor rename can empty or move until made writable.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { write } from "@/tests/support/reporter";

const asRoot = process.getuid?.() === 0;
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "read-only-"));
  fs.chmodSync(tmp, 0o755);
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A Go module cache as `go mod download` leaves it, owned by nobody. */
function goCache(name: string): string {
  const mod = path.join(tmp, name, "pkg/mod");
  write(path.join(mod, "github.com/x/y@v1.2.0/go.mod"), 100);
  write(path.join(mod, "github.com/x/y@v1.2.0/internal/z.go"), 5000);
  fs.symlinkSync("/etc", path.join(mod, "github.com/x/y@v1.2.0/outside"));
  execFileSync("chmod", ["-R", "a-w", path.join(mod, "github.com")]);
  execFileSync("chown", ["-R", "nobody:nogroup", path.join(tmp, name)]);
  return path.join(mod, "github.com");
}

const asNobody = (script: string) =>
  spawnSync(
    "setpriv",
    ["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "node", "--import", "tsx", "-e", script],
    {
      encoding: "utf8",
      cwd: process.cwd(),
    },
  );

it.skipIf(!asRoot)("removes a tree of 0555 folders as their owner, never following a link", () => {
  const plain = goCache("plain");
  const rm = asNobody(`require("node:fs").rmSync(${JSON.stringify(plain)}, { recursive: true })`);
  expect(rm.status).not.toBe(0); // what a plain delete meets
  expect(fs.existsSync(plain)).toBe(true);

  const cache = goCache("cleaned");
  const fsSafe = path.resolve("lib/reporter/cleanup/fs-safe.ts");
  const r = asNobody(`
    const fs = require("node:fs");
    import(${JSON.stringify(fsSafe)}).then(({ makeFolderWritable, removeTree }) => {
      const p = ${JSON.stringify(cache)};
      makeFolderWritable(p); // the unit's top, as a delete job does before moving it
      console.log(JSON.stringify(removeTree(p, fs.lstatSync(p, { bigint: true }).dev)));
    });`);
  expect(r.stderr).toBe("");
  expect(JSON.parse(r.stdout)).toEqual({ remaining: 0, error: null });
  expect(fs.existsSync(cache)).toBe(false);
  expect(fs.statSync("/etc").mode & 0o777).toBe(0o755); // the link's target untouched
});
