import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { report as reportSchema } from "@/lib/report-format/schema";
import type { StorageRoot } from "@/lib/report-format/schema";
import {
  DAY_S,
  SCRIPT_CURRENT,
  SCRIPT_OLD,
  UUID1,
  buildHome,
  canMountTmpfs,
  compiledScanner,
  du,
} from "@/tests/support/reporter";
import { discoverRoots, type RootSpec } from "./roots";
import { scanRoots } from "./scan-roots";

const NOW = Math.floor(Date.now() / 1000);
let tmp: string;
let home: string;
let specs: RootSpec[];
/** The native scanner, compiled for these tests. */
let native: string;

function allocated(p: string): number {
  return fs.lstatSync(p).blocks * 512;
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-scan-"));
  home = fs.realpathSync(tmp) + "/home";
  fs.mkdirSync(home);
  buildHome(home, NOW);
  native = compiledScanner(tmp);
  specs = discoverRoots({
    home,
    env: { CODER_SCRIPT_DATA_DIR: path.join(home, ".coder/coder-script-data", SCRIPT_CURRENT) },
    config: {
      roots: [
        { key: "work-cache", path: "work/cache" },
        { key: "escape", path: "../etc" },
        { key: "module-scripts", path: ".coder-modules/coder/claude-code/scripts" }, // nested in a module folder
      ],
    },
  });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("root discovery", () => {
  it("finds every kind of root, with keys, kinds, agents and nested roots first", () => {
    const byKey = new Map(specs.map((s) => [s.key, s]));
    expect([...byKey.keys()].sort()).toEqual(
      [
        "claude-code:config",
        "claude-code:data",
        "codex:data",
        "coder-labs/some-tool",
        "coder/claude-code",
        "coder/codex",
        "gemini:data",
        "goose:data",
        "legacy:claude-module",
        "module-scripts",
        `script-data:${SCRIPT_CURRENT}`,
        `script-data:${SCRIPT_OLD}`,
        "work-cache",
      ].sort(),
    );
    expect(byKey.get("coder/claude-code")).toMatchObject({ kind: "module", agent: "claude-code" });
    expect(byKey.get("coder/codex")).toMatchObject({ kind: "module", agent: "codex" });
    expect(byKey.get("coder-labs/some-tool")).toMatchObject({ kind: "module", agent: "other" });
    expect(byKey.get("legacy:claude-module")).toMatchObject({
      kind: "legacy",
      agent: "claude-code",
      rel: ".claude-module",
    });
    expect(byKey.get(`script-data:${SCRIPT_OLD}`)).toMatchObject({ kind: "script-data", orphaned: true });
    expect(byKey.get(`script-data:${SCRIPT_CURRENT}`)).toMatchObject({ orphaned: false });
    expect(byKey.get("work-cache")).toMatchObject({ kind: "custom", agent: "other", rel: "work/cache" });
    // a root nested in another comes before it; AgentAPI leftovers are no roots of their own
    const idx = (k: string) => specs.findIndex((s) => s.key === k);
    expect(idx("module-scripts")).toBeLessThan(idx("coder/claude-code"));
    expect(specs.filter((s) => s.kind === "leftover")).toEqual([]);
    for (const s of specs) expect(s.rel.split("/")).not.toContain("..");
  });

  it("honours CLAUDE_CONFIG_DIR and CODEX_HOME, and ignores folders outside home", () => {
    fs.mkdirSync(path.join(home, "alt-claude"), { recursive: true });
    const s = discoverRoots({ home, env: { CLAUDE_CONFIG_DIR: path.join(home, "alt-claude"), CODEX_HOME: "/etc" } });
    expect(s.find((x) => x.key === "claude-code:data")?.rel).toBe("alt-claude");
    expect(s.find((x) => x.key === "codex:data")).toBeUndefined();
    fs.rmdirSync(path.join(home, "alt-claude"));
  });
});

for (const [mode, parallel, nativeFs] of [
  ["native", 2, true],
  ["native", 1, true],
  ["find", 2, true],
  ["find", 1, true],
  ["node", 1, true],
  ["node", 1, false],
] as const) {
  describe(`scanner ${mode} (parallel ${parallel}${nativeFs ? "" : ", Node's public fs API"})`, () => {
    let roots: StorageRoot[];
    let byKey: Map<string, StorageRoot>;
    beforeAll(async () => {
      const r = await scanRoots(specs, NOW, { mode, home, parallel, nativeFs, native });
      expect(r.scanner).toBe(mode);
      roots = r.roots;
      byKey = new Map(roots.map((x) => [x.key, x]));
    });

    it("matches du -sx -B1 and --apparent-size and --inodes of the roots in report order, to the byte", () => {
      const paths = roots.map((r) => path.join(home, r.path));
      const alloc = du(paths, ["-B1"]);
      const apparent = du(paths, ["-B1", "--apparent-size"]);
      const inodes = du(paths, ["--inodes"]);
      for (const r of roots) {
        const p = path.join(home, r.path);
        expect({ key: r.key, bytes: r.bytes }).toEqual({ key: r.key, bytes: alloc.get(p) });
        expect({ key: r.key, apparent: r.apparentBytes }).toEqual({ key: r.key, apparent: apparent.get(p) });
        expect({ key: r.key, entries: r.files + r.dirs }).toEqual({ key: r.key, entries: inodes.get(p) });
      }
    });

    it("counts a hard link across roots once, in the first root; per-root du shows the difference", () => {
      const claude = byKey.get("claude-code:data")!;
      const legacy = byKey.get("legacy:claude-module")!;
      expect(roots.indexOf(claude)).toBeLessThan(roots.indexOf(legacy));
      const linked = allocated(path.join(home, ".claude/hl-a"));
      const alone = du([path.join(home, ".claude-module")]).get(path.join(home, ".claude-module"))!;
      expect(legacy.bytes).toBe(alone - linked);
      // inside one root: the two links of hl-a count once
      const claudeAlone = du([path.join(home, ".claude")]).get(path.join(home, ".claude"))!;
      expect(claude.bytes).toBe(claudeAlone);
    });

    it("does not follow symbolic links, and counts the root folder as du does", () => {
      const claude = byKey.get("claude-code:data")!;
      // 1000 small + 5 projects + history + file-history + 3 debug + snapshot + sparse + hl-a (once) + 5 symlinks
      expect(claude.files).toBe(1000 + 5 + 1 + 1 + 3 + 1 + 1 + 1 + 5);
      const dirs = Number(
        execFileSync("find", [path.join(home, ".claude"), "-type", "d"], { encoding: "utf8" })
          .trim()
          .split("\n").length,
      );
      expect(claude.dirs).toBe(dirs);
      expect(claude.apparentBytes).toBeGreaterThan(64 * 1024 * 1024); // the sparse file's size
      expect(claude.bytes).toBeLessThan(16 * 1024 * 1024); // ...but not its blocks
    });

    it("breaks down by category and age as the files were made", () => {
      const claude = byKey.get("claude-code:data")!;
      const c = claude.categories!;
      expect(c.sessions?.files).toBe(7); // projects/** (5), history.jsonl, file-history/s1/v1
      expect(c.logs?.files).toBe(3);
      expect(c.caches?.files).toBe(1);
      expect(c.databases).toBeUndefined();
      const sum = (o: Record<string, { bytes: number; files: number } | undefined>) =>
        Object.values(o).reduce<{ bytes: number; files: number }>(
          (s, x) => ({ bytes: s.bytes + (x?.bytes ?? 0), files: s.files + (x?.files ?? 0) }),
          { bytes: 0, files: 0 },
        );
      expect(sum(c)).toEqual({ bytes: claude.bytes, files: claude.files });
      expect(sum(claude.ages!)).toEqual({ bytes: claude.bytes, files: claude.files });
      const a = claude.ages!;
      expect(a.older).toEqual({
        files: 1,
        bytes: allocated(
          path.join(home, `.claude/projects/-work-b`, fs.readdirSync(path.join(home, ".claude/projects/-work-b"))[0]),
        ),
      });
      expect(a["90d"]?.files).toBe(1); // 40 days
      expect(a["30d"]?.files).toBe(1); // debug/x0, 10 days
      expect(a["7d"]?.files).toBe(3); // the session of 2 days: jsonl + two files in its folder
      expect(claude.oldestMtime).toBe(new Date((NOW - 100 * DAY_S) * 1000).toISOString());

      const goose = byKey.get("goose:data")!;
      expect(goose.categories?.databases?.files).toBe(3); // sessions.db + -wal + -shm
      const codex = byKey.get("codex:data")!;
      expect(codex.categories?.sessions?.files).toBe(2);
      expect(codex.categories?.databases?.files).toBe(1);
      expect(codex.categories?.logs?.files).toBe(1);
      expect(codex.ages?.older?.files).toBe(1);
      const mod = byKey.get("coder/claude-code")!;
      expect(mod.categories?.logs?.files).toBe(1);
      expect(mod.files).toBe(3); // logs/install.log and the two leftovers; scripts/ is a root of its own
      expect(byKey.get(`script-data:${SCRIPT_OLD}`)?.orphaned).toBe(true);
    });

    it("lists the largest entries, with a Claude session as its .jsonl plus its folder", () => {
      const claude = byKey.get("claude-code:data")!;
      const session = claude.largest!.find((e) => e.path === `projects/-work-app/${UUID1}.jsonl`);
      const folder = path.join(home, ".claude/projects/-work-app", UUID1);
      const expected = du([folder]).get(folder)! + allocated(folder + ".jsonl");
      expect(session).toMatchObject({ type: "session", bytes: expected });
      // many/hl-b is a hard link of hl-a: it counts once, at the first path by name (hl-a), so not in many/
      const many = claude.largest!.find((e) => e.path === "many");
      const manyDu = du([path.join(home, ".claude/many")]).get(path.join(home, ".claude/many"))!;
      expect(many).toMatchObject({ type: "dir", bytes: manyDu - allocated(path.join(home, ".claude/hl-a")) });
      expect(claude.largest!.length).toBeLessThanOrEqual(20);
      const sorted = [...claude.largest!].sort((a, b) => b.bytes - a.bytes);
      expect(claude.largest!.map((e) => e.bytes)).toEqual(sorted.map((e) => e.bytes));
      const codex = byKey.get("codex:data")!;
      expect(codex.largest!.find((e) => e.type === "session")?.path).toMatch(/^sessions\/2025\/01\/02\/rollout-/);
    });

    it("produces a report the server's schema accepts", () => {
      const r = reportSchema.safeParse({
        version: 1,
        id: "7d444840-9dc0-41d7-9bd6-5a4d8a7f11ec",
        collectedAt: new Date(NOW * 1000).toISOString(),
        workspace: { id: "ws-1", name: "w", owner: "o" },
        reporter: { version: "0.1.0", scanMs: 1 },
        roots,
      });
      expect(r.success ? "ok" : JSON.stringify(r.error.issues)).toBe("ok");
    });
  });
}

/**
 * A tree the native scanner `bin` gives up on (exit 3): in native mode the scan fails, in auto mode find measures
 * it, as du does. The auto scan's result.
 */
async function findTakesOver(home: string, bin: string) {
  const specs = discoverRoots({ home, env: {} });
  await expect(scanRoots(specs, NOW, { mode: "native", home, native: bin })).rejects.toThrow(/exited with 3/);
  const r = await scanRoots(specs, NOW, { mode: "auto", home, native: bin });
  expect(r.scanner).toBe("find");
  const root = path.join(home, ".codex");
  expect(r.roots[0].bytes).toBe(du([root]).get(root));
  return r;
}

describe("the three scanners", () => {
  it("give identical reports", async () => {
    const a = await scanRoots(specs, NOW, { mode: "find", home, parallel: 2 });
    const b = await scanRoots(specs, NOW, { mode: "node", home });
    const c = await scanRoots(specs, NOW, { mode: "native", home, parallel: 2, native });
    expect(a.roots).toEqual(b.roots);
    expect(a.errors.items).toEqual(b.errors.items);
    expect(c.roots).toEqual(a.roots);
    expect(c.errors.items).toEqual(a.errors.items);
  });

  it("auto prefers the native scanner, and falls back to find where it cannot run or gives up", async () => {
    const ref = await scanRoots(specs, NOW, { mode: "find", home });
    const auto = await scanRoots(specs, NOW, { mode: "auto", home, native });
    expect(auto.scanner).toBe("native");
    expect(auto.roots).toEqual(ref.roots);
    // not executable (a home mounted noexec answers the same), built for another machine, deeper than its
    // descriptors (exit 3) after printing part of the tree: everything is measured again by find
    const notExecutable = path.join(tmp, "scan-not-executable");
    fs.copyFileSync(native, notExecutable);
    fs.chmodSync(notExecutable, 0o644);
    const foreign = path.join(tmp, "scan-foreign");
    fs.writeFileSync(foreign, Buffer.from("7f454c460201010000000000000000000200b7", "hex"), { mode: 0o755 });
    const givesUp = path.join(tmp, "scan-gives-up");
    fs.writeFileSync(givesUp, `#!/bin/sh\n"${native}" "$@" | head -c 300\nexit 3\n`, { mode: 0o755 });
    for (const bin of [notExecutable, foreign, givesUp, path.join(tmp, "no-such-scan")]) {
      const r = await scanRoots(specs, NOW, { mode: "auto", home, native: bin });
      expect({ bin, scanner: r.scanner }).toEqual({ bin, scanner: "find" });
      expect(r.roots).toEqual(ref.roots);
    }
    // asked for by name, its failure is the scan's
    await expect(scanRoots(specs, NOW, { mode: "native", home, native: givesUp })).rejects.toThrow(/exited with 3/);
    await expect(scanRoots(specs, NOW, { mode: "native", home, native: null })).rejects.toThrow(/no native scanner/);
  });

  it("the native scanner gives up on a tree deeper than its descriptors, and find measures it", async () => {
    const deepHome = path.join(tmp, "deep-home");
    let dir = path.join(deepHome, ".codex", "sessions");
    for (let d = 0; d < 24; d++) dir = path.join(dir, `level-${d}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "rollout.jsonl"), Buffer.alloc(5000, 120));
    const deepSpecs = discoverRoots({ home: deepHome, env: {} });
    // at most 16 descriptors: stdin, stdout, stderr and 13 folders open at once
    const limited = path.join(tmp, "scan-limited");
    fs.writeFileSync(limited, `#!/bin/sh\nulimit -n 16 && exec "${native}" "$@"\n`, { mode: 0o755 });
    const r = await findTakesOver(deepHome, limited);
    // with its descriptors, it measures the same tree itself
    const full = await scanRoots(deepSpecs, NOW, { mode: "native", home: deepHome, native });
    expect(full.roots).toEqual(r.roots);
  });

  it("the native scanner gives up on a tree deeper than 4,096 folders (a folder copied into itself), and find measures it", async () => {
    const deepHome = path.join(tmp, "runaway-home");
    try {
      // 5,000 levels, deeper than a path may be spelled whole (PATH_MAX): chains of 1,000 folders, each moved
      // to the bottom of the next
      const chain = (k: number) => {
        const bottom = path.join(deepHome, `chain-${k}`, ...Array<string>(1000).fill("a"));
        fs.mkdirSync(bottom, { recursive: true });
        return bottom;
      };
      fs.writeFileSync(path.join(chain(0), "rollout.jsonl"), "x");
      for (let k = 1; k < 5; k++) fs.renameSync(path.join(deepHome, `chain-${k - 1}`), path.join(chain(k), "b"));
      fs.mkdirSync(path.join(deepHome, ".codex"));
      fs.renameSync(path.join(deepHome, "chain-4"), path.join(deepHome, ".codex", "sessions"));
      const r = await findTakesOver(deepHome, native);
      expect(r.roots[0].dirs).toBeGreaterThan(5000);
    } finally {
      // Node's rm spells each path whole, too long here; GNU rm walks relative to each folder
      execFileSync("rm", ["-rf", deepHome]);
    }
  });

  it("fall back to the Node walker when find has no -printf (busybox)", async () => {
    const fake = path.join(tmp, "busybox-find");
    fs.writeFileSync(fake, "#!/bin/sh\necho 'find: unrecognized: -printf' >&2\nexit 1\n", { mode: 0o755 });
    const r = await scanRoots(specs, NOW, { mode: "auto", home, findBin: fake });
    expect(r.scanner).toBe("node");
    const ref = await scanRoots(specs, NOW, { mode: "node", home });
    expect(r.roots).toEqual(ref.roots);
    const missing = await scanRoots(specs, NOW, { mode: "auto", home, findBin: path.join(tmp, "no-such-find") });
    expect(missing.scanner).toBe("node");
  });
});

describe("AgentAPI leftovers", () => {
  /** Without the configuration's custom roots no root is nested in another: each is its whole folder. */
  let plain: RootSpec[];
  beforeAll(() => {
    plain = discoverRoots({ home, env: {} });
  });

  const asListed = (rel: string) => {
    const st = fs.lstatSync(path.join(home, rel));
    return {
      bytes: st.blocks * 512,
      apparentBytes: st.size,
      mtime: new Date(Math.floor(st.mtimeMs / 1000) * 1000).toISOString(),
    };
  };

  for (const [mode, parallel] of [
    ["native", 2],
    ["find", 2],
    ["node", 1],
  ] as const) {
    it(`count in their folder like any file: every root is du -sB1 of its folder (${mode})`, async () => {
      const { roots } = await scanRoots(plain, NOW, { mode, home, parallel, native });
      // .claude-module/shared-link is a hard link of .claude/hl-a, which comes first: du of the folder alone
      // counts it, the report counts it in ~/.claude only.
      const link = fs.lstatSync(path.join(home, ".claude/hl-a"));
      for (const r of roots) {
        const p = path.join(home, r.path);
        const shared = r.key === "legacy:claude-module";
        expect({ key: r.key, bytes: r.bytes + (shared ? link.blocks * 512 : 0) }).toEqual({
          key: r.key,
          bytes: du([p]).get(p),
        });
        expect({ key: r.key, apparent: r.apparentBytes + (shared ? link.size : 0) }).toEqual({
          key: r.key,
          apparent: du([p], ["-B1", "--apparent-size"]).get(p),
        });
        expect({ key: r.key, entries: r.files + r.dirs + (shared ? 1 : 0) }).toEqual({
          key: r.key,
          entries: du([p], ["--inodes"]).get(p),
        });
      }
      const byKey = new Map(roots.map((r) => [r.key, r]));
      expect(roots.filter((r) => r.leftovers).map((r) => r.key)).toEqual(
        ["coder/claude-code", "legacy:claude-module"].filter((k) => byKey.has(k)),
      );
      const mod = byKey.get("coder/claude-code")!;
      expect(mod.leftovers).toEqual([
        { path: "agentapi-state.json", ...asListed(".coder-modules/coder/claude-code/agentapi-state.json") },
        { path: "agentapi.pid", ...asListed(".coder-modules/coder/claude-code/agentapi.pid") },
      ]);
      expect(byKey.get("legacy:claude-module")!.leftovers).toEqual([
        { path: "agentapi-state.json", ...asListed(".claude-module/agentapi-state.json") },
      ]);
      // just files: among the largest entries and in the breakdowns like the others
      const { bytes, mtime } = asListed(".coder-modules/coder/claude-code/agentapi-state.json");
      expect(mod.largest).toContainEqual({ path: "agentapi-state.json", bytes, mtime, type: "file" });
      expect(mod.categories?.other?.files).toBe(3); // the two leftovers and scripts/start.sh
    });
  }
});

describe.skipIf(!canMountTmpfs())("a mount point inside a root", () => {
  it("is left out entirely, like du -x, by every scanner", async () => {
    const mnt = path.join(home, ".codex/sessions/mnt");
    fs.mkdirSync(mnt);
    const mnt2 = path.join(home, ".codex/mnt2"); // a start point of the find fast path
    fs.mkdirSync(mnt2);
    execFileSync("mount", ["-t", "tmpfs", "none", mnt]);
    execFileSync("mount", ["-t", "tmpfs", "none", mnt2]);
    try {
      fs.writeFileSync(path.join(mnt, "big"), Buffer.alloc(100_000));
      fs.writeFileSync(path.join(mnt2, "big"), Buffer.alloc(100_000));
      const root = path.join(home, ".codex");
      const expected = du([root]).get(root);
      const codexSpecs = specs.filter((s) => s.key === "codex:data");
      for (const mode of ["native", "find", "node"] as const) {
        const r = await scanRoots(codexSpecs, NOW, { mode, home, native });
        expect({ mode, bytes: r.roots[0].bytes }).toEqual({ mode, bytes: expected });
        expect(r.roots[0].files + r.roots[0].dirs).toBe(du([root], ["--inodes"]).get(root));
      }
    } finally {
      execFileSync("umount", [mnt]);
      execFileSync("umount", [mnt2]);
      fs.rmdirSync(mnt);
      fs.rmdirSync(mnt2);
    }
  });
});
