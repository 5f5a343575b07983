// The native scanner's processes share out a -s folder's entries by path, two levels deep: together they
// print every entry once, as one process alone does, and each takes a share of roots laid out alike.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledScanner } from "@/tests/support/reporter";

let tmp: string;
let native: string;

/** Every entry a run prints (without summaries, all of them), as its path. */
function entries(cwd: string, args: string[]): string[] {
  const r = spawnSync(native, args, { cwd, encoding: "latin1" });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
  const paths: string[] = [];
  let folder = "";
  for (const rec of r.stdout.split("\0")) {
    if (rec.startsWith("D")) folder = rec.slice(1);
    else if (/^H?\d/.test(rec)) paths.push(`${folder}/${rec.slice(rec.lastIndexOf(" ") + 1)}`);
  }
  return paths;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "native-shares-"));
  native = compiledScanner(tmp);
  // ten module folders laid out alike, each six levels deep, with names that repeat across them
  for (let m = 0; m < 10; m++) {
    let dir = path.join(tmp, "home", ".coder-modules", "coder", `m${m}`, "data");
    for (let level = 0; level < 6; level++) {
      dir = path.join(dir, "p0");
      for (let f = 0; f < 5; f++) fs.mkdirSync(path.join(dir, `q${f}`), { recursive: true });
      for (let f = 0; f < 5; f++) fs.writeFileSync(path.join(dir, `q${f}`, "f.txt"), "x".repeat(f * 100));
    }
  }
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the native scanner's shares", () => {
  it("print every entry once between them, through the shared levels and below", () => {
    const home = path.join(tmp, "home");
    const points = Array.from({ length: 10 }, (_, m) => ["-s", `./.coder-modules/coder/m${m}/data`]).flat();
    const whole = entries(home, points).sort();
    for (const n of [2, 3]) {
      const shares = Array.from({ length: n }, (_, k) => entries(home, ["-k", `${k}/${n}`, ...points]));
      expect(shares.flat().sort()).toEqual(whole);
      // folders laid out alike in every root no longer all fall to one process
      for (const share of shares) expect(share.length).toBeGreaterThan(whole.length / (n * 2));
    }
  });
});
