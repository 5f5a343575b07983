import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGE_BUCKET_DAYS, AGE_BUCKETS } from "@/lib/report-format/constants";
import { ageStep } from "../cleanup/age-steps";
import { ProtectList } from "../cleanup/protect";
import { DAY_S, compiledScanner, du, setAge, write } from "@/tests/support/reporter";
import { Aggregator } from "./aggregate";
import { ErrorLog } from "./errors";
import { TimeBins } from "./native-sums";
import { discoverRoots, type RootSpec } from "./roots";
import { scanRoots, type ScanOptions } from "./scan-roots";

const NOW = Math.floor(Date.now() / 1000);
let tmp: string;
let home: string;
let specs: RootSpec[];
let native: string;

/** Ages (days) that land in every age bucket and on both sides of recipe age steps; negative: in the future. */
const AGES = [0.2, 1.5, 2.5, 6.9, 7, 7.1, 13.5, 14, 14 + 1 / DAY_S, 29, 30, 31, 44, 61, 89.5, 90, 91, 200, 400, -3];

/**
 * A home where the native scanner's sums have work to do: sessions with folders many levels deep, folders that
 * change the category far down (logs, node_modules), database files and hard links deep inside, files of
 * every age, debug files (file units) and file-history folders (folder units), Codex rollouts beside other
 * files, and a root whose largest files tie on size, with names whose byte order and JavaScript order differ.
 */
function buildSumsHome(h: (p: string) => string) {
  let n = 0;
  const age = () => AGES[n++ % AGES.length];
  for (let p = 0; p < 3; p++) {
    for (let s = 0; s < 4; s++) {
      const id = `0000000${p}-0000-4000-8000-00000000000${s}`;
      const proj = `.claude/projects/-work-p${p}`;
      write(h(`${proj}/${id}.jsonl`), 1000 + 700 * s, age(), NOW);
      for (const sub of ["subagents/deep/er", "tool-results", "tool-results/a/b/c/d"])
        for (let f = 0; f < 3; f++) write(h(`${proj}/${id}/${sub}/f${f}.txt`), 300 * f + 50 * s, age(), NOW);
      write(h(`${proj}/${id}/tool-results/a/logs/x.txt`), 5000, age(), NOW);
      write(h(`${proj}/${id}/tool-results/a/b/node_modules/m/index.js`), 7000, age(), NOW);
      write(h(`${proj}/${id}/tool-results/a/b/c/state.sqlite-journal`), 3000, age(), NOW);
      write(h(`${proj}/${id}/tool-results/a/b/c/cache.db`), 9000, age(), NOW);
    }
  }
  // the bulk of a real tree: small files no rule tells apart
  for (let f = 0; f < 400; f++)
    write(
      h(`.claude/projects/-work-p0/00000000-0000-4000-8000-000000000002/tool-results/bulk/r${f}.txt`),
      10,
      age(),
      NOW,
    );
  fs.linkSync(
    h(".claude/projects/-work-p0/00000000-0000-4000-8000-000000000000/tool-results/f1.txt"),
    h(".claude/projects/-work-p1/00000001-0000-4000-8000-000000000001/tool-results/a/b/c/d/link.txt"),
  );
  for (let i = 0; i < 40; i++) write(h(`.claude/debug/d${i}.txt`), 100 * i, age(), NOW);
  // files on each bound of the age buckets and steps
  for (const days of [1, 2, 7, 14, 30, 90, 365])
    for (const extra of [-1, 0, 1])
      write(h(`.claude/debug/edge/e${days}-${extra + 1}`), 700, days + extra / DAY_S, NOW);
  // folders deep down that change the category of what they hold (the generic rules)
  // (empty: never among the largest, so only summed; deeper than any rule of the three roots looks)
  write(h("ties/a/b/c/d/e/f/logs/x.txt"), 0, 3, NOW);
  write(h("ties/a/b/c/d/e/f/node_modules/m/i.js"), 0, 3, NOW);
  write(h(".codex/other/a/b/c/d/e/logs/x.txt"), 0, 3, NOW);
  // Gemini: its chats folder (depth 3) holds sessions, the rest of tmp/ caches
  write(h(".gemini/tmp/abc123/chats/session-1.json"), 3000, 2, NOW);
  write(h(".gemini/tmp/abc123/chats/sub/deep/x.json"), 0, 2, NOW);
  write(h(".gemini/tmp/abc123/other/deep/x.json"), 0, 2, NOW);
  write(h(".claude/debug/deep/er/x.txt"), 4000, age(), NOW);
  write(h(".claude/debug/trace.sqlite"), 4000, age(), NOW);
  for (let s = 0; s < 5; s++)
    for (let v = 0; v < 4; v++) write(h(`.claude/file-history/s${s}/a/b/v${v}`), 900, age(), NOW);
  fs.utimesSync(h(".claude/file-history/s0/a/b/v0"), -10 * DAY_S, -10 * DAY_S); // before 1970
  for (let d = 0; d < 6; d++) {
    const day = `.codex/sessions/2026/0${1 + (d % 3)}/1${d}`;
    write(h(`${day}/rollout-2026-0${d}.jsonl`), 4000 + d, age(), NOW);
    write(h(`${day}/notes.txt`), 500, age(), NOW);
    write(h(`${day}/deeper/still/rollout-x.jsonl`), 700, age(), NOW);
  }
  // ties: 60 files of one size, deep, and names whose UTF-8 and UTF-16 orders differ
  for (let i = 0; i < 60; i++)
    write(h(`ties/a/b/c/d/f${String((i * 7919) % 1000).padStart(3, "0")}`), 8000, age(), NOW);
  for (const name of ["é", "\uE000", "😀", "Z", "a\u00A0"]) write(h(`ties/a/b/c/d/${name}`), 8000, age(), NOW);
  for (const name of ["\uE000x", "😀x"]) write(h(`ties/a/b/c/${name}`), 8000, age(), NOW);
  // two module folders: roots of one kind, whose rules the scanner is given once (-u)
  for (const mod of [".coder-modules/coder/alpha", ".coder-modules/acme/beta"]) {
    for (let i = 0; i < 6; i++) write(h(`${mod}/logs/run-${i}.log`), 600 * i, age(), NOW);
    write(h(`${mod}/state.db`), 5000, age(), NOW);
    for (let i = 0; i < 30; i++) write(h(`${mod}/data/p${i % 3}/q${i % 5}/f${i}`), 100 * i, age(), NOW);
    write(h(`${mod}/data/p1/cache/x.bin`), 2500, age(), NOW);
  }
  // folders of every age
  setAge(h(".claude/projects/-work-p2"), 95, NOW);
  setAge(h("ties/a/b"), 20, NOW);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-sums-"));
  home = fs.realpathSync(tmp) + "/home";
  buildSumsHome((p) => path.join(home, p));
  native = compiledScanner(tmp);
  specs = discoverRoots({ home, env: {}, config: { roots: [{ key: "ties", path: "ties" }] } });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function both(opts: Partial<ScanOptions> = {}) {
  const node = await scanRoots(specs, NOW, { mode: "node", home, ...opts });
  const sums = [1, 2].map((parallel) => scanRoots(specs, NOW, { mode: "native", home, native, parallel, ...opts }));
  return { node, native: await Promise.all(sums) };
}

describe("the native scanner's sums", () => {
  it("give the report the Node walker gives, entry by entry, and du's sizes", async () => {
    const { node, native: runs } = await both();
    expect(node.roots.map((r) => r.key).sort()).toEqual([
      "acme/beta",
      "claude-code:data",
      "coder/alpha",
      "codex:data",
      "gemini:data",
      "ties",
    ]);
    // the two module folders' rules are one array: the scanner is given them once, the second told to use them
    const sums = new Aggregator(specs, NOW, new ErrorLog()).scannerSums();
    const [alpha, beta] = ["coder/alpha", "acme/beta"].map((key) => specs.findIndex((s) => s.key === key));
    expect(sums.root(beta)).toBe(sums.root(alpha));
    for (const r of runs) {
      expect(r.scanner).toBe("native");
      expect(r.roots).toEqual(node.roots);
      expect(r.errors.items).toEqual(node.errors.items);
    }
    const sizes = du(specs.filter((s) => fs.existsSync(s.abs)).map((s) => s.abs));
    for (const root of node.roots) expect(root.bytes).toBe(sizes.get(specs.find((s) => s.key === root.key)!.abs));
    // the ties were settled by name: the largest list holds files of the tied size, not all of them
    const ties = node.roots.find((r) => r.key === "ties")!;
    const tied = ties.largest!.filter((e) => e.type === "file");
    expect(tied.length).toBeGreaterThan(5);
    expect(tied.length).toBeLessThan(60);
  });

  it("give a job's units and the usage of protected units as the Node walker does", async () => {
    const protect = new ProtectList([".claude/projects/-work-p1", ".claude/debug/d1*", ".claude/file-history/s2"]);
    const { node, native: runs } = await both({ collect: true, protect });
    expect([...node.found.get("claude-code:data")!.values()].flat().length).toBeGreaterThan(50);
    // units in the order they were met, which differs between scanners
    const sorted = (found: typeof node.found) =>
      [...found].map(([root, byTarget]) => [
        root,
        [...byTarget].map(([id, units]) => [id, [...units].sort((a, b) => (a.path < b.path ? -1 : 1))]),
      ]);
    for (const r of runs) {
      expect(r.roots).toEqual(node.roots);
      expect(sorted(r.found)).toEqual(sorted(node.found));
    }
  });

  it("leave most entries to the sums: the scanner prints few of them on their own", () => {
    const agg = new Aggregator(specs, NOW, new ErrorLog());
    const claude = specs.find((s) => s.key === "claude-code:data")!;
    const sums = agg.scannerSums();
    const root = specs.indexOf(claude);
    const points = fs.readdirSync(claude.abs).flatMap((n) => ["-s", n]);
    const r = spawnSync(native, [...sums.args, "-r", String(root), ...sums.root(root), ...points], { cwd: claude.abs });
    expect(r.status).toBe(0);
    const records = r.stdout.toString("latin1").split("\0").filter(Boolean);
    const entries = Number(
      spawnSync("find", [claude.abs, "-mindepth", "2"], { encoding: "utf8" }).stdout.split("\n").length - 1,
    );
    expect(records.filter((x) => x.startsWith("C")).length).toBeGreaterThan(0);
    const printed = records.filter((x) => /^[0-9H]/.test(x)).length;
    expect(printed).toBeLessThan(entries / 3);
  });
});

describe("the time bins", () => {
  it("put every mtime in the age bucket and the recipe age step its own would", () => {
    const bins = new TimeBins(NOW);
    const bucketOf = (m: number) =>
      AGE_BUCKETS.find((b) => b === "older" || m > Math.floor(NOW - AGE_BUCKET_DAYS[b] * DAY_S))!;
    const binOf = (m: number) => {
      let k = 0;
      while (k < bins.bounds.length && m <= bins.bounds[k]) k++;
      return k;
    };
    const mtimes = [NOW + 100, NOW, -5, 0, ...bins.bounds.flatMap((b) => [b - 1, b, b + 1])];
    for (const m of mtimes) {
      expect({ m, bucket: bins.bucket[binOf(m)] }).toEqual({ m, bucket: bucketOf(m) });
      expect({ m, step: bins.step[binOf(m)] }).toEqual({ m, step: ageStep(NOW - m) });
    }
  });
});
