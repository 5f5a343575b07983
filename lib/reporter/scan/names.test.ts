// Names Node's strings cannot carry (bytes that are not UTF-8), names with a newline, and the other entries
// of the levels the Node side measures on the find path (the first two: the walker; below: find), compared
// with du to the byte for every scanner.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledScanner, du } from "@/tests/support/reporter";
import { rawFs } from "./raw-fs";
import { discoverRoots, type RootSpec } from "./roots";
import { scanRoots } from "./scan-roots";

const NOW = Math.floor(Date.now() / 1000);
let tmp: string;
let home: string;
let specs: RootSpec[];
let native: string;

/** A name with a byte that is not UTF-8 (0xff) and a newline. */
const odd = (stem: string) => Buffer.concat([Buffer.from(stem), Buffer.from([0xff, 0x0a]), Buffer.from("z")]);
const at = (...parts: (string | Buffer)[]) =>
  Buffer.concat(parts.flatMap((p, k) => (k ? [Buffer.from("/"), Buffer.from(p)] : [Buffer.from(p)])));

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-names-"));
  native = compiledScanner(tmp);
  home = fs.realpathSync(tmp) + "/home";
  const root = path.join(home, ".claude");
  fs.mkdirSync(path.join(root, "projects/-work-app/deep"), { recursive: true });
  const file = (p: Buffer, bytes: number) => fs.writeFileSync(p, Buffer.alloc(bytes, 120));
  // level 1 (measured by Node): a file and a folder with odd names, the folder holding a file and a folder
  file(at(root, odd("top")), 7000);
  fs.mkdirSync(at(root, odd("topdir"), "sub"), { recursive: true });
  file(at(root, odd("topdir"), "sub", "f"), 9000);
  // level 2 (Node's walker): an odd file, an odd folder (no find start point can name it), a hard link pair
  // with an odd name, a sparse file, and a name with a newline only
  file(at(root, "projects", odd("file")), 11_000);
  fs.mkdirSync(at(root, "projects", odd("dir")));
  file(at(root, "projects", odd("dir"), odd("inner")), 13_000);
  file(at(root, "projects", "linked"), 15_000);
  fs.linkSync(at(root, "projects", "linked"), at(root, "projects", odd("link")));
  const fd = fs.openSync(path.join(root, "projects/sparse.bin"), "w");
  fs.writeSync(fd, Buffer.from("end"), 0, 3, 8 * 1024 * 1024 - 3);
  fs.closeSync(fd);
  file(at(root, "projects", "new\nline"), 3000);
  // large folders (the walker makes them its working folder) at level 1 and below, with such names among 40
  fs.mkdirSync(path.join(root, "big/deeper/still"), { recursive: true });
  for (const dir of ["big", "big/deeper/still"]) {
    for (let n = 0; n < 40; n++) file(at(root, dir, `f${n}`), 100 * n);
    file(at(root, dir, odd("big")), 4000);
    file(at(root, dir, "with\nnewline"), 1000);
    fs.linkSync(at(root, dir, "f1"), at(root, dir, odd("hl")));
  }
  // level 3 and below (find): the same kinds of names
  file(at(root, "projects/-work-app", odd("s")), 5000);
  file(at(root, "projects/-work-app/deep", odd("t")), 6000);
  file(at(root, "projects/-work-app/deep", "two\nlines\n"), 2000);
  specs = discoverRoots({ home, env: {} });
  expect(specs.map((s) => s.key)).toEqual(["claude-code:data"]);
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("names that are not UTF-8 or hold a newline, at every depth", () => {
  for (const [mode, parallel, nativeFs] of [
    ["native", 2, true],
    ["native", 1, true],
    ["find", 2, true],
    ["find", 1, true],
    ["node", 1, true],
    ["node", 1, false],
  ] as const) {
    it(`count as du counts them (${mode}, parallel ${parallel}${nativeFs ? "" : ", public fs API"})`, async () => {
      const { roots, errors } = await scanRoots(specs, NOW, { mode, home, parallel, nativeFs, native });
      const root = path.join(home, ".claude");
      expect(errors.items).toEqual([]);
      expect(roots[0].bytes).toBe(du([root]).get(root));
      expect(roots[0].apparentBytes).toBe(du([root], ["-B1", "--apparent-size"]).get(root));
      expect(roots[0].files + roots[0].dirs).toBe(du([root], ["--inodes"]).get(root));
      expect(roots[0].files).toBe(10 + 2 * 42); // every file above, each hard link once
    });
  }

  it("give identical reports from the three scanners and both fs APIs", async () => {
    const a = await scanRoots(specs, NOW, { mode: "find", home, parallel: 2 });
    const b = await scanRoots(specs, NOW, { mode: "node", home });
    const c = await scanRoots(specs, NOW, { mode: "node", home, nativeFs: false });
    const d = await scanRoots(specs, NOW, { mode: "native", home, parallel: 2, native });
    expect(a.roots).toEqual(b.roots);
    expect(b.roots).toEqual(c.roots);
    expect(d.roots).toEqual(a.roots);
  });
});

describe("raw fs", () => {
  it("uses Node's fs binding on this Node, and it answers as the public API", () => {
    const dir = path.join(home, ".claude/projects");
    const raw = rawFs(dir);
    expect(raw.native).toBe(true);
    const pub = rawFs(dir, false);
    expect(pub.native).toBe(false);
    for (const name of [...fs.readdirSync(dir)].sort()) {
      const p = path.join(dir, name);
      const a = raw.lstat(p) && Array.from(raw.lstat(p)!.slice(0, 14));
      const b = pub.lstat(p) && Array.from(pub.lstat(p)!.slice(0, 14));
      // the public API fills only the fields the scan reads
      expect(a && [0, 1, 2, 7, 8, 9, 12].map((k) => a[k])).toEqual(b && [0, 1, 2, 7, 8, 9, 12].map((k) => b[k]));
    }
    expect(raw.lstat(path.join(dir, "no-such-entry"))).toBeUndefined();
    expect(() => raw.readdir(path.join(dir, "no-such-folder"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(
      raw
        .readdirBytes(dir)
        .map((b) => b.toString())
        .sort(),
    ).toEqual(raw.readdir(dir).sort());
  });
});
