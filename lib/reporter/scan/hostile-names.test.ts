// A hostile tree: file and folder names whose bytes are not UTF-8 (Latin-1, a character cut short, an encoded
// surrogate, stray continuation bytes), beside names with a backslash, a newline, a literal "\xE9" and a real
// U+FFFD. The find scanner measures it as du does, and its report is one the server takes: the names that are
// not text travel escaped and marked, and undo to the bytes on disk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findBadText } from "@/lib/validations/text";
import { decodeName, pathBytes, wirePath } from "@/lib/report-format/path-encoding";
import { report as reportSchema, type StorageRoot } from "@/lib/report-format/schema";
import { du } from "@/tests/support/reporter";
import { discoverRoots } from "./roots";
import { scanRoots } from "./scan-roots";

const NOW = Math.floor(Date.now() / 1000);
const b = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

/**
 * Names as bytes, each a file of its own size in ~/.claude/debug/hostile, and a folder with a file in it. (Below
 * the root's first two levels, which Node lists to split the work between find processes: find's own output
 * carries the bytes. A name that is not UTF-8 in those first two levels is not measured yet.)
 */
const NAMES: Buffer[] = [
  b("caf", [0xe9], ".log"), // Latin-1
  b("cut-", [0xe2, 0x82], ".log"), // a character cut short
  b("surrogate-", [0xed, 0xa0, 0x80], ".log"), // an encoded surrogate (CESU)
  b([0xff, 0xfe], "-bom.log"),
  b("back\\slash-", [0xe9], ".log"), // a backslash inside a name that gets escaped
  b("plain\\x41.log"), // text that looks like an escape, in a valid name
  b("real-\uFFFD.log"), // a real replacement character: valid UTF-8
  b("new\nline.log"),
  b("café.log"),
];
const FOLDER = b("dir-", [0xc3], "-x"); // a folder not UTF-8, with a file in it

let tmp: string;
let home: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-hostile-"));
  home = fs.realpathSync(tmp) + "/home";
  const debug = path.join(home, ".claude/debug/hostile");
  fs.mkdirSync(debug, { recursive: true });
  NAMES.forEach((name, i) =>
    fs.writeFileSync(Buffer.concat([Buffer.from(debug + "/"), name]), "x".repeat(5000 + i * 4096)),
  );
  const folder = Buffer.concat([Buffer.from(debug + "/"), FOLDER]);
  fs.mkdirSync(folder);
  fs.writeFileSync(Buffer.concat([folder, Buffer.from("/inner.log")]), "y".repeat(90_000));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("path encoding", () => {
  it("keeps every byte: decode, escape and undo give the name's bytes back", () => {
    for (const name of [...NAMES, FOLDER]) {
      const wire = wirePath(decodeName(name));
      expect(Buffer.from(pathBytes(wire.path, wire.pathEncoding)).equals(name), name.toString("latin1")).toBe(true);
      expect(findBadText(wire.path)).toBeNull();
    }
    expect(wirePath(decodeName(b("caf", [0xe9], ".log")))).toEqual({ path: "caf\\xE9.log", pathEncoding: "escaped" });
    expect(wirePath(decodeName(b("back\\slash-", [0xe9])))).toEqual({
      path: "back\\\\slash-\\xE9",
      pathEncoding: "escaped",
    });
    // valid names travel as they are, a backslash or a real U+FFFD included
    expect(wirePath(decodeName(b("plain\\x41.log")))).toEqual({ path: "plain\\x41.log" });
    expect(wirePath(decodeName(b("real-\uFFFD.log")))).toEqual({ path: "real-\uFFFD.log" });
  });
});

describe("the find scanner on the hostile tree", () => {
  let root: StorageRoot;
  beforeAll(async () => {
    const specs = discoverRoots({ home, env: {}, config: null }).filter((s) => s.key === "claude-code:data");
    const scanned = await scanRoots(specs, NOW, { mode: "find", home, parallel: 1 });
    root = scanned.roots[0];
  });

  it("measures it as du -sB1 does, to the byte", () => {
    const p = path.join(home, ".claude");
    expect(root.bytes).toBe(du([p], ["-B1"]).get(p));
    expect(root.apparentBytes).toBe(du([p], ["-B1", "--apparent-size"]).get(p));
    expect(root.files + root.dirs).toBe(du([p], ["--inodes"]).get(p));
  });

  it("sends the names that are not UTF-8 escaped and marked, each naming the bytes on disk", () => {
    const largest = root.largest ?? [];
    const escaped = largest.filter((e) => e.pathEncoding === "escaped");
    // the 5 files whose names are not UTF-8, and the file in the folder whose name is not
    expect(escaped.map((e) => e.path).sort()).toEqual(
      [
        "debug/hostile/caf\\xE9.log",
        "debug/hostile/cut-\\xE2\\x82.log",
        "debug/hostile/surrogate-\\xED\\xA0\\x80.log",
        "debug/hostile/\\xFF\\xFE-bom.log",
        "debug/hostile/back\\\\slash-\\xE9.log",
        "debug/hostile/dir-\\xC3-x/inner.log",
      ].sort(),
    );
    for (const e of escaped) {
      const onDisk = Buffer.concat([
        Buffer.from(path.join(home, ".claude") + "/"),
        Buffer.from(pathBytes(e.path, e.pathEncoding)),
      ]);
      expect(fs.existsSync(onDisk), e.path).toBe(true);
    }
    const plain = largest.filter((e) => !e.pathEncoding).map((e) => e.path);
    expect(plain).toEqual(
      expect.arrayContaining([
        "debug/hostile/plain\\x41.log",
        "debug/hostile/real-\uFFFD.log",
        "debug/hostile/new\nline.log",
        "debug/hostile/café.log",
      ]),
    );
  });

  it("makes a report the server takes: schema, and no text a database refuses", () => {
    const r = {
      version: 1,
      id: "7d444840-9dc0-41d7-9bd6-5a4d8a7f11ec",
      collectedAt: new Date(NOW * 1000).toISOString(),
      workspace: { id: "ws-1", name: "w", owner: "o" },
      reporter: { version: "0.4.0", scanMs: 1 },
      roots: [root],
    };
    expect(findBadText(r)).toBeNull();
    const parsed = reportSchema.safeParse(JSON.parse(JSON.stringify(r)));
    expect(parsed.success ? "ok" : JSON.stringify(parsed.error.issues)).toBe("ok");
    // and its JSON is strict UTF-8
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(JSON.stringify(r)))).not.toThrow();
  });
});
