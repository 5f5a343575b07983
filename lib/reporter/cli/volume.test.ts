// The report's volume against df itself, on real file systems: a tmpfs of our own (quiet, so the figures
// must be equal) and the shared /tmp (busy, so a figure must lie between df's readings just before and after).

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Volume } from "@/lib/report-format/schema";
import { inodeUsePercent, volumeUsePercent } from "@/tests/support/df";
import { canMountTmpfs } from "@/tests/support/reporter";
import { main } from "./main";

const COLUMNS = ["size", "used", "avail", "pcent", "itotal", "iused", "iavail", "ipcent"] as const;
type Df = Record<(typeof COLUMNS)[number], number | null>;

/** One df invocation, so bytes and inodes are read at the same moment. "-" (no figure) becomes null. */
function df(dir: string): Df {
  const out = execFileSync("df", ["-B1", `--output=${COLUMNS.join(",")}`, dir], { encoding: "utf8" });
  const fields = out.trim().split("\n")[1].trim().split(/\s+/);
  return Object.fromEntries(
    COLUMNS.map((c, k) => [c, fields[k] === "-" ? null : Number(fields[k].replace("%", ""))]),
  ) as Df;
}

/** The reporter's volume in df's columns. */
function asDf(v: Volume): Df {
  return {
    size: v.totalBytes,
    used: v.usedBytes ?? null,
    avail: v.freeBytes,
    pcent: volumeUsePercent(v),
    itotal: v.inodes?.total ?? null,
    iused: v.inodes?.used ?? null,
    iavail: v.inodes?.free ?? null,
    ipcent: v.inodes ? inodeUsePercent(v) : null,
  };
}

async function reportedVolume(home: string): Promise<Volume> {
  const out: string[] = [];
  const code = await main(["--dry-run", "--home", home], {
    env: {},
    io: { stdout: (s) => void out.push(s), stderr: () => {} },
  });
  expect(code).toBe(0);
  return JSON.parse(out.join("")).volume;
}

describe.skipIf(!canMountTmpfs())("the report's volume on a tmpfs of its own", () => {
  it("equals df -B1's Size, Used, Avail, Use% and df -i's Inodes, IUsed, IFree, IUse%", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-volume-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", dir]);
    try {
      fs.writeFileSync(path.join(dir, "big"), Buffer.alloc(5_000_000, 1));
      fs.mkdirSync(path.join(dir, ".claude"));
      for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(dir, ".claude", `f${i}`), "x".repeat(i * 100));
      const v = await reportedVolume(dir);
      const expected = df(dir);
      expect(asDf(v)).toEqual(expected);
      expect(expected.used).toBeGreaterThan(5_000_000);
      expect(expected.pcent).toBeGreaterThan(30);
    } finally {
      execFileSync("umount", [dir]);
      fs.rmdirSync(dir);
    }
  });
});

describe("the report's volume on the shared /tmp", () => {
  it("lies between df's readings just before and just after", async () => {
    // A home of its own on /tmp's volume: the volume is the same, and the walk does not read whatever else the
    // machine keeps in /tmp (one CI run timed out walking another run's millions of files there).
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reporter-volume-")));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const between = (x: number | null, a: number | null, b: number | null) =>
      x === null ? a === null && b === null : a !== null && b !== null && x >= Math.min(a, b) && x <= Math.max(a, b);
    // Another process may write between the readings and undo it before the second: try a few times.
    let last: { before: Df; reporter: Df; after: Df } | null = null;
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = df(dir);
      const reporter = asDf(await reportedVolume(dir));
      const after = df(dir);
      last = { before, reporter, after };
      if (COLUMNS.every((c) => between(reporter[c], before[c], after[c]))) break;
    }
    const { before, reporter, after } = last!;
    for (const c of COLUMNS)
      expect({
        column: c,
        ok: between(reporter[c], before[c], after[c]),
        before: before[c],
        reporter: reporter[c],
        after: after[c],
      }).toMatchObject({ ok: true });
  });
});
