import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { homeKindOf } from "@/lib/report-format/home-kinds";
import { report as reportSchema } from "@/lib/report-format/schema";
import { buildHome, canMountTmpfs, compiledScanner, du, SCRIPT_CURRENT, write } from "@/tests/support/reporter";
import { buildReport } from "./build-report";
import { wholeHomeSpec } from "./home-usage";
import { discoverRoots } from "./roots";
import { scanRoots } from "./scan-roots";

const NOW = new Date();
const MODES = ["native", "find", "node"] as const;
let tmp: string;
let home: string;
let native: string;
const env = () => ({ CODER_SCRIPT_DATA_DIR: path.join(home, ".coder/coder-script-data", SCRIPT_CURRENT) });

/** The non-agent folders a real home has, shaped as the tools write them. */
function buildRest(h: (p: string) => string) {
  for (let i = 0; i < 40; i++) write(h(`.npm/_cacache/content-v2/sha512/${i % 7}/${i}`), 30_000 + i);
  write(h(".npm/_npx/abc/node_modules/pkg/index.js"), 9_000); // node_modules inside a cache: a cache's bytes
  for (let i = 0; i < 30; i++) write(h(`.cache/pip/http-v2/${i % 5}/${i}.body`), 20_000);
  for (let i = 0; i < 20; i++) write(h(`go/pkg/mod/github.com/x/y@v1.${i}/f.go`), 25_000);
  write(h(".m2/repository/org/a/1.0/a.jar"), 900_000);
  write(h(".m2/settings.xml"), 500);
  write(h(".docker/config.json"), 300);
  write(h(".local/share/containers/storage/overlay/l1/diff/usr/bin/tool"), 800_000);
  write(h("src/app/node_modules/react/index.js"), 700_000);
  write(h("src/app/node_modules/react/node_modules/x/y.js"), 50_000);
  write(h("src/app/main.ts"), 2_000);
  write(h("src/tool/target/debug/tool"), 500_000);
  write(h("src/py/.venv/lib/site.py"), 80_000);
  // a VS Code server copied into itself, as a Coder user found it
  write(h(".vscode-server/bin/abc/node"), 900_000);
  write(h(".vscode-server/data/User/.vscode-server/bin/abc/node"), 200_000);
  write(h(".vscode-server/data/User/.vscode-server/x/.vscode-server/bin/node"), 100_000);
  // a sparse file and hard links in the rest, one shared with an agent's root (counted there)
  const fd = fs.openSync(h("src/sparse.img"), "w");
  fs.writeSync(fd, Buffer.from("x"), 0, 1, 32 * 1024 * 1024);
  fs.closeSync(fd);
  write(h("src/hl-1"), 60_000);
  fs.linkSync(h("src/hl-1"), h("src/app/hl-2"));
  fs.linkSync(h(".claude/hl-a"), h("src/claude-link"));
  // Go's module cache is read-only
  execFileSync("chmod", ["-R", "a-w", h("go/pkg/mod/github.com")]);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-home-"));
  home = fs.realpathSync(tmp) + "/home";
  fs.mkdirSync(home);
  buildHome(home);
  buildRest((p) => path.join(home, p));
  native = compiledScanner(tmp);
});

afterAll(() => {
  execFileSync("chmod", ["-R", "u+w", tmp]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function reportOf(mode: (typeof MODES)[number], at = home) {
  const identity = { id: "w", name: "w", owner: "o" };
  const r = await buildReport({ home: at, identity, config: null }, env(), { mode, native }, NOW, () => {});
  return reportSchema.parse(r);
}

describe("the whole home", () => {
  it("totals du -sxB1 ~, split into the roots and the rest, with every scanner", async () => {
    const total = du([home]).get(home)!;
    const apparent = du([home], ["-B1", "--apparent-size"]).get(home)!;
    const inodes = du([home], ["--inodes"]).get(home)!;
    for (const mode of MODES) {
      const { home: h, roots } = await reportOf(mode);
      expect({ mode, bytes: h!.bytes, apparent: h!.apparentBytes, inodes: h!.files + h!.dirs }).toEqual({
        mode,
        bytes: total,
        apparent,
        inodes,
      });
      const sum = (kinds: string[]) => roots.filter((r) => kinds.includes(r.kind)).reduce((s, r) => s + r.bytes, 0);
      expect(h!.roots).toEqual({
        agents: sum(["tool"]),
        modules: sum(["module", "legacy", "script-data"]),
        other: sum(["custom", "trash"]),
      });
      // the rest is du of the home with every root given before it (du counts each folder and inode once), but
      // the package caches: roots so that their cleanup acts in a root, the rest's in the split
      const specs = discoverRoots({ home, env: env() }).filter((s) => s.kind !== "package-cache");
      const restDu = du([...specs.map((s) => s.abs), home]).get(home);
      expect({ mode, rest: h!.rest }).toEqual({ mode, rest: restDu });
    }
  });

  it("lists the rest's largest folders at du's figures, three levels at most, each over 1 %, kinds named", async () => {
    const specs = discoverRoots({ home, env: env() }).filter((s) => s.kind !== "package-cache");
    for (const mode of MODES) {
      const { home: h } = await reportOf(mode);
      expect(h!.largest.length).toBeGreaterThan(5);
      expect(h!.largest.length).toBeLessThanOrEqual(20);
      for (const f of h!.largest) {
        expect(f.path.split("/").length).toBeLessThanOrEqual(3);
        expect(f.bytes).toBeGreaterThan(h!.bytes / 100);
        // du's figure for the folder less what the roots hold (.local/share holds Goose's; src a hard link of
        // ~/.claude): du given the roots first counts each folder and inode once
        const abs = path.join(home, f.path);
        const expected = du([...specs.map((s) => s.abs), abs]).get(abs);
        expect({ mode, path: f.path, bytes: f.bytes }).toEqual({ mode, path: f.path, bytes: expected });
      }
      // where nothing of a root is inside, that is du -sB1 of the folder alone
      for (const p of [
        ".npm",
        ".cache/pip",
        "go/pkg/mod",
        ".m2/repository",
        ".vscode-server",
        "src/app/node_modules",
      ]) {
        const abs = path.join(home, p);
        expect(h!.largest.find((f) => f.path === p)?.bytes).toBe(du([abs]).get(abs));
      }
      const byPath = new Map(h!.largest.map((f) => [f.path, f]));
      expect(byPath.get(".npm")?.kind).toBe("package-cache");
      expect(byPath.get(".cache/pip")?.kind).toBe("package-cache");
      expect(byPath.get("go/pkg/mod")?.kind).toBe("package-cache");
      expect(byPath.get(".m2/repository")?.kind).toBe("package-cache");
      expect(byPath.get(".local/share/containers")?.kind).toBe("containers");
      expect(byPath.get(".vscode-server")?.kind).toBe("ide-server");
      expect(byPath.get("src/app/node_modules")?.kind).toBe("project-deps");
      expect(byPath.has(".m2")).toBe(true); // the folder, holding settings.xml: no kind
      expect(byPath.get(".m2")?.kind).toBeUndefined();
      expect([...byPath.values()].some((f) => f.path.startsWith(".docker"))).toBe(false); // too small
    }
  });

  it("names project dependencies wherever they lie, and caches only at their own place", () => {
    expect(homeKindOf("src/tool/target")).toBe("project-deps");
    expect(homeKindOf("a/b/.venv")).toBe("project-deps");
    expect(homeKindOf(".m2")).toBeNull();
    expect(homeKindOf(".docker")).toBeNull();
    expect(homeKindOf("x/.npm")).toBeNull();
  });

  it("adds up each kind, and finds a folder that holds a copy of its own name", async () => {
    const d = (p: string) => du([path.join(home, p)]).get(path.join(home, p))!;
    for (const mode of MODES) {
      const { home: h } = await reportOf(mode);
      expect(h!.kinds["package-cache"]).toBe(d(".npm") + d(".cache/pip") + d("go/pkg/mod") + d(".m2/repository"));
      expect(h!.kinds.containers).toBe(d(".local/share/containers"));
      expect(h!.kinds["ide-server"]).toBe(d(".vscode-server"));
      // outermost folders only; the one inside ~/.npm is the cache's
      expect(h!.kinds["project-deps"]).toBe(d("src/app/node_modules") + d("src/tool/target") + d("src/py/.venv"));
      expect(h!.nestedCopies).toEqual([
        { path: ".vscode-server/data/User/.vscode-server", bytes: d(".vscode-server/data/User/.vscode-server") },
      ]);
    }
  });
});

describe.skipIf(!canMountTmpfs())("a mount inside the home", () => {
  it("is left out of the total like du -x, and listed with its own figures", async () => {
    const mnt = path.join(home, "scratch");
    fs.mkdirSync(mnt);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "none", mnt]);
    try {
      fs.writeFileSync(path.join(mnt, "big"), Buffer.alloc(1_000_000, 1));
      const total = du([home]).get(home)!;
      const df = execFileSync("df", ["-B1", "--output=size,used", mnt], { encoding: "utf8" });
      const [size, used] = df.trim().split("\n")[1].trim().split(/\s+/).map(Number);
      for (const mode of MODES) {
        const { home: h } = await reportOf(mode);
        expect({ mode, bytes: h!.bytes }).toEqual({ mode, bytes: total });
        expect(h!.mounts).toEqual([{ path: "scratch", fsType: "tmpfs", totalBytes: size, usedBytes: used }]);
      }
    } finally {
      execFileSync("umount", [mnt]);
      fs.rmdirSync(mnt);
    }
  });
});

describe.skipIf(!canMountTmpfs())("what no walk sees (needs root: a tmpfs of its own, a look under a mount)", () => {
  it("counts a file deleted but held open, to the byte, as the part of df's Used it is", async () => {
    // a volume of its own: every other process's deleted files are on other devices
    const vol = path.join(tmp, "vol");
    fs.mkdirSync(vol);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "none", vol]);
    const held = path.join(vol, "src/held.log");
    write(path.join(vol, "src/kept.txt"), 200_000);
    write(held, 3_000_000);
    const allocated = fs.statSync(held).blocks * 512;
    const holder = spawn("sh", ["-c", 'exec 3<"$0"; rm -- "$0"; echo held; exec sleep 600', held], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    try {
      await once(holder.stdout, "data");
      expect(fs.existsSync(held)).toBe(false);
      for (const mode of MODES) {
        const r = await reportOf(mode, vol);
        expect({ mode, open: r.home!.deletedOpen }).toEqual({ mode, open: { files: 1, bytes: allocated } });
      }
      // the native scanner reads them itself after its walk (-o); find leaves them to the main thread
      const scanOf = (mode: "native" | "find") =>
        scanRoots([wholeHomeSpec(vol)], Math.floor(NOW.getTime() / 1000), {
          mode,
          native,
          home: vol,
          deletedOpenOn: fs.statSync(vol).dev,
        });
      expect((await scanOf("native")).deletedOpen).toEqual({ files: 1, bytes: allocated });
      expect((await scanOf("find")).deletedOpen).toBeNull();
      const dfUsed = () =>
        Number(execFileSync("df", ["-B1", "--output=used", vol], { encoding: "utf8" }).trim().split("\n")[1]);
      const open = await reportOf("find", vol);
      const usedOpen = dfUsed();
      expect(open.volume?.usedBytes).toBe(usedOpen);
      holder.kill();
      await once(holder, "exit");
      const closed = await reportOf("find", vol);
      expect(closed.home!.deletedOpen).toBeUndefined();
      // df's Used fell by the file's blocks when the process closed it: the line was that part of Used, no more
      expect(usedOpen - dfUsed()).toBe(allocated);
      expect(open.home!.bytes).toBe(closed.home!.bytes);
    } finally {
      holder.kill();
      execFileSync("umount", [vol]);
      fs.rmdirSync(vol);
    }
  });

  it("measures what a mount inside the home hides, as du -sx saw it before the mount", async () => {
    const mnt = path.join(home, "hidden-under");
    write(path.join(mnt, "written-before-the-mount.bin"), 1_500_000);
    const before = du([mnt]).get(mnt)!;
    const total = du([home]).get(home)!;
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "none", mnt]);
    try {
      for (const mode of MODES) {
        const { home: h } = await reportOf(mode);
        expect({ mode, hidden: h!.hiddenUnderMounts }).toEqual({ mode, hidden: before });
        // the walk no longer counts the folder: its bytes moved from the home's total to the hidden line
        expect({ mode, bytes: h!.bytes }).toEqual({ mode, bytes: total - before });
      }
    } finally {
      execFileSync("umount", [mnt]);
      fs.rmSync(mnt, { recursive: true });
    }
  });
});
