import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenFiles } from "./open-files";

describe("open and locked files", () => {
  it("sees a file another process holds open, by device and inode", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "open-files-"));
    const file = path.join(dir, "held");
    fs.writeFileSync(file, "x");
    const fd = fs.openSync(file, "r");
    const child = spawn("sleep", ["30"], { stdio: ["ignore", fd, "ignore"] });
    fs.closeSync(fd);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const st = fs.statSync(file, { bigint: true });
      expect(readOpenFiles().has(st.dev, st.ino)).toBe(true);
      const other = path.join(dir, "free");
      fs.writeFileSync(other, "y");
      const st2 = fs.statSync(other, { bigint: true });
      expect(readOpenFiles().has(st2.dev, st2.ino)).toBe(false);
    } finally {
      child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sees the program file of a running process: an old release still in use is not removed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "open-files-"));
    const release = path.join(dir, "2.1.205"); // as Claude Code names its release binaries
    fs.copyFileSync(execFileSync("sh", ["-c", "command -v sleep"], { encoding: "utf8" }).trim(), release);
    fs.chmodSync(release, 0o755);
    const child = spawn(release, ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const st = fs.statSync(release, { bigint: true });
      expect(readOpenFiles().has(st.dev, st.ino)).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads /proc/locks by inode (a lock held by a process whose descriptors it cannot read)", () => {
    const proc = fs.mkdtempSync(path.join(os.tmpdir(), "fake-proc-"));
    fs.writeFileSync(
      path.join(proc, "locks"),
      "1: POSIX  ADVISORY  WRITE 4242 fd:01:918273 0 EOF\n2: -> FLOCK  ADVISORY  WRITE 4243 00:2b:5 0 EOF\n",
    );
    const o = readOpenFiles(proc);
    expect(o.has(123n, 918273n)).toBe(true);
    expect(o.has(1n, 5n)).toBe(true);
    expect(o.has(1n, 6n)).toBe(false);
    fs.rmSync(proc, { recursive: true });
  });
});
