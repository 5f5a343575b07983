// Package caches on trees shaped like the real ones (cache-fixtures.ts): each is a root of its own with one
// unit, the whole cache; its "frees" figure counts only files whose every link is inside it (checked against
// du and stat); a run deletes it for good (nothing stays in the trash), makes Go's 0555 folders writable as
// their owner, and never touches what lies beside the caches (credentials, settings, logs).

import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PACKAGE_CACHES, PACKAGE_CACHE_AGENT } from "@/lib/catalog/recipe-data/caches";
import { HOME_KIND_PATHS } from "@/lib/report-format/home-kinds";
import { TRASH_DIR } from "@/lib/catalog/recipes";
import { buildReport } from "../scan/build-report";
import { discoverRoots } from "../scan/roots";
import { scanRoots, type ScannerMode } from "../scan/scan-roots";
import { compiledScanner, du } from "@/tests/support/reporter";
import {
  NEVER_SELECTED,
  PNPM_LINKED,
  PNPM_STORE,
  PROJECT_PNPM,
  buildPackageCaches,
} from "@/tests/support/cache-fixtures";
import { runCleanup } from "./execute";
import { ENV, job, snapshot, cleanupContext } from "@/tests/support/cleanup-fixtures";

let tmp: string;
let home: string;
let nowSec: number;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "package-caches-")));
  fs.chmodSync(tmp, 0o755);
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  nowSec = Math.floor(Date.now() / 1000);
  buildPackageCaches(home, nowSec);
});
afterEach(() => {
  execFileSync("chmod", ["-R", "u+w", tmp]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** stat's allocated bytes (%b blocks of %B bytes) of the files under `dir` that have more than one link. */
function linkedBytes(dir: string): number {
  const out = execFileSync("find", [dir, "-type", "f", "-links", "+1", "-exec", "stat", "-c", "%b %B", "{}", "+"], {
    encoding: "utf8",
  });
  return out
    .trim()
    .split("\n")
    .filter(Boolean)
    .reduce((s, l) => s + Number(l.split(" ")[0]) * Number(l.split(" ")[1]), 0);
}

const runJob = (over: Parameters<typeof job>[0]) =>
  runCleanup(job({ params: { olderThanDays: 1 }, ...over }), cleanupContext(home, { running: ["bash"], nowSec }));

describe("package caches in the report", () => {
  it.each<ScannerMode>(["node", "find", "native"])(
    "each is a root with one unit, its frees figure du's less the files linked from elsewhere (%s)",
    async (mode) => {
      const native = mode === "native" ? compiledScanner(tmp) : null;
      const scan = await scanRoots(discoverRoots({ home, env: ENV(home) }), nowSec, { home, mode, native });
      const caches = scan.roots.filter((r) => r.kind === "package-cache");
      expect(caches.map((r) => r.key).sort()).toEqual(PACKAGE_CACHES.map((c) => c.key).sort());
      const sizes = du(PACKAGE_CACHES.map((c) => path.join(home, c.path)));
      for (const c of PACKAGE_CACHES) {
        const root = caches.find((r) => r.key === c.key)!;
        expect(root.agent).toBe(PACKAGE_CACHE_AGENT);
        expect(root.path).toBe(c.path);
        expect(root.bytes, c.key).toBe(sizes.get(path.join(home, c.path)));
        expect(Object.keys(root.recipes ?? {}), c.key).toEqual([c.recipe]);
        const usage = root.recipes![c.recipe]!;
        expect(usage.units, c.key).toBe(1);
        const frees = root.bytes - (c.recipe === "pnpm-store" ? linkedBytes(path.join(home, c.path)) : 0);
        expect(usage.bytes, c.key).toBe(frees);
      }
      // the store's linked files free nothing: only the unlinked file, the index and the folders
      const store = caches.find((r) => r.key === "package-cache:pnpm")!;
      expect(linkedBytes(path.join(home, PNPM_STORE))).toBeGreaterThan(0);
      expect(store.recipes!["pnpm-store"]!.bytes).toBeLessThan(store.bytes);
      // no other root offers a cache recipe
      for (const r of scan.roots.filter((x) => x.kind !== "package-cache"))
        expect(Object.keys(r.recipes ?? {}).filter((id) => PACKAGE_CACHES.some((c) => c.recipe === id))).toEqual([]);
    },
  );

  it("stay in the home's rest, its package-cache kind and its folders, as du counts them", async () => {
    const report = await buildReport(
      { home, identity: { id: "ws", name: "ws", owner: "o" }, config: null },
      ENV(home),
      { mode: "find", native: null },
      new Date(nowSec * 1000),
      () => {},
    );
    const h = report.home!;
    expect(h.bytes).toBe(du([home], ["-B1"]).get(home));
    expect(h.roots).toEqual({ agents: 0, modules: 0, other: 0 });
    expect(h.rest).toBe(h.bytes);
    const cachePaths = Object.entries(HOME_KIND_PATHS)
      .filter(([p, k]) => k === "package-cache" && fs.existsSync(path.join(home, p)))
      .map(([p]) => path.join(home, p));
    const total = execFileSync("du", ["-scxB1", ...cachePaths], { encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1)!;
    expect(h.kinds["package-cache"]).toBe(Number(total.split("\t")[0]));
    const folder = (p: string) => h.largest.find((f) => f.path === p)?.bytes;
    expect(folder(".cache")).toBe(du([path.join(home, ".cache")]).get(path.join(home, ".cache")));
    expect(folder("go/pkg/mod")).toBe(du([path.join(home, "go/pkg/mod")]).get(path.join(home, "go/pkg/mod")));
  });
});

describe("a package cache's run", () => {
  it("deletes exactly its cache, for good: nothing in the trash, nothing beside it touched", async () => {
    for (const c of PACKAGE_CACHES) {
      const before = snapshot(home);
      const res = await runJob({ recipe: c.recipe, action: "delete" });
      expect(res.errors, c.key).toEqual([]);
      expect(
        res.units.map((u) => [u.path, u.action]),
        c.key,
      ).toEqual([[c.path, "deleted"]]);
      const after = snapshot(home);
      const gone = [...before.keys()].filter((k) => !after.has(k));
      const inCache = [...before.keys()].filter((k) => k === c.path || k.startsWith(c.path + "/"));
      expect(gone.sort(), c.key).toEqual(inCache.sort());
      expect([...after.keys()].filter((k) => !before.has(k) && !k.startsWith(".coder-modules"))).toEqual([]);
      const trash = path.join(home, TRASH_DIR);
      expect(fs.existsSync(trash) ? fs.readdirSync(trash) : [], c.key).toEqual([]);
    }
    for (const rel of NEVER_SELECTED) expect(fs.existsSync(path.join(home, rel)), rel).toBe(true);
  });

  it("deletes a cache where its variable moved it, and leaves the one at the fixed place alone", async () => {
    // GOMODCACHE set in the template: go writes to ~/cache/gomod; an old ~/go/pkg/mod is another folder
    const moved = path.join(home, "cache/gomod/cache/download/golang.org/x/mod/@v");
    fs.mkdirSync(moved, { recursive: true });
    fs.writeFileSync(path.join(moved, "v0.20.0.zip"), Buffer.alloc(70_000, 1));
    const old = nowSec - 3 * 86_400;
    for (const rel of ["", "cache", "cache/download", "cache/download/golang.org", "cache/download/golang.org/x"])
      fs.utimesSync(path.join(home, "cache/gomod", rel), old, old);
    for (const rel of ["golang.org/x/mod", "golang.org/x/mod/@v", "golang.org/x/mod/@v/v0.20.0.zip"])
      fs.utimesSync(path.join(home, "cache/gomod/cache/download", rel), old, old);
    const fixed = [...snapshot(home)].filter(([k]) => k.startsWith("go/"));
    const ctx = {
      ...cleanupContext(home, { running: ["bash"], nowSec }),
      env: { ...ENV(home), GOMODCACHE: path.join(home, "cache/gomod") },
    };
    const res = await runCleanup(
      job({ recipe: "go-module-cache", action: "delete", params: { olderThanDays: 1 } }),
      ctx,
    );
    expect(res.errors).toEqual([]);
    expect(res.units.map((u) => [u.path, u.action])).toEqual([["cache/gomod", "deleted"]]);
    expect(fs.existsSync(path.join(home, "cache/gomod"))).toBe(false);
    expect([...snapshot(home)].filter(([k]) => k.startsWith("go/"))).toEqual(fixed);
  });

  it("frees the pnpm store's own files only: the project's linked files stay whole", async () => {
    const store = path.join(home, PNPM_STORE);
    const frees = du([store]).get(store)! - linkedBytes(store);
    const res = await runJob({ recipe: "pnpm-store", action: "delete" });
    expect(res.bytesActed).toBe(frees);
    for (const [, linked] of PNPM_LINKED) {
      const st = fs.statSync(path.join(home, PROJECT_PNPM, linked));
      expect(st.nlink).toBe(1);
      expect(st.size).toBe(18_000);
    }
  });

  it("refuses to trash a cache: the job fails and nothing moves", async () => {
    const cacheState = () => [...snapshot(home)].filter(([k]) => !k.startsWith(".coder-modules")); // the log grows
    const before = cacheState();
    const res = await runJob({ recipe: "npm-cache", action: "trash" });
    expect(res.status).toBe("failed");
    expect(res.errors[0].message).toMatch(/only ever deleted/);
    expect(cacheState()).toEqual(before);
    // a custom rule inside a cache's root as well
    const custom = { rootKey: "package-cache:npm", glob: "content-v2/**", unit: "file" as const };
    const byRule = await runJob({ recipe: null, custom, action: "trash" });
    expect(byRule.status).toBe("failed");
    expect(byRule.errors[0].message).toBe(
      "package-cache:npm is only ever deleted (the trash would free nothing): a job to trash it is refused",
    );
    expect(cacheState()).toEqual(before);
  });

  it.skipIf(process.getuid?.() !== 0)("deletes Go's 0555 module cache as the workspace's user", () => {
    execFileSync("chown", ["-R", "nobody:nogroup", home]);
    const modules = path.join(home, "go/pkg/mod/github.com/x/y@v1.2.0");
    expect(fs.statSync(modules).mode & 0o777).toBe(0o555);
    const script = `
      import(${JSON.stringify(path.resolve("lib/reporter/cleanup/execute.ts"))}).then(async ({ runCleanup }) => {
        const { job, ENV } = await import(${JSON.stringify(path.resolve("tests/support/cleanup-fixtures.ts"))});
        const { CleanupLog } = await import(${JSON.stringify(path.resolve("lib/reporter/cleanup/log.ts"))});
        const { readProtect } = await import(${JSON.stringify(path.resolve("lib/reporter/cleanup/protect.ts"))});
        const home = ${JSON.stringify(home)};
        const res = await runCleanup(job({ recipe: "go-module-cache", params: { olderThanDays: 1 } }), {
          home, env: ENV(home), config: null, log: new CleanupLog(home, () => new Date()), now: () => new Date(),
          protect: readProtect(home), progress: async () => false,
          guardFacts: () => ({ home, running: new Set(), startSec: 0 }),
        });
        console.log(JSON.stringify(res));
      });`;
    const r = spawnSync(
      "setpriv",
      ["--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "node", "--import", "tsx", "-e", script],
      { encoding: "utf8", cwd: process.cwd(), env: { ...process.env, HOME: home } },
    );
    const res = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    expect(res.errors).toEqual([]);
    expect(res.units.map((u: { path: string }) => u.path)).toEqual(["go/pkg/mod"]);
    expect(fs.existsSync(path.join(home, "go/pkg/mod"))).toBe(false);
    expect(fs.readdirSync(path.join(home, TRASH_DIR))).toEqual([]);
  });
});
