// The report's per-recipe usage against the executor: the scan and the job count the same units and bytes,
// and a preview read from the usage's age steps predicts a dry run's bytes.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECIPES, type RecipeId } from "@/lib/catalog/recipes";
import type { RecipeParams } from "@/lib/cleanup/protocol";
import { previewFromUsage } from "@/lib/cleanup/preview";
import type { RecipeUsage, StorageRoot } from "@/lib/report-format/schema";
import { discoverRoots } from "../scan/roots";
import { scanRoots } from "../scan/scan-roots";
import { runCleanup } from "./execute";
import {
  ENV,
  SESSION,
  ageTree,
  buildCleanupHome,
  job,
  kubeletWalk,
  put,
  cleanupContext,
} from "@/tests/support/cleanup-fixtures";
import { readProtect } from "./protect";

let tmp: string;
let home: string;
let nowSec: number;
let roots: StorageRoot[];

/** A small deterministic generator (the same tree on every run). */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

beforeAll(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "cleanup-usage-")));
  home = path.join(tmp, "home");
  fs.mkdirSync(home);
  nowSec = Math.floor(Date.now() / 1000);
  buildCleanupHome(home, path.join(tmp, "outside"), nowSec);
  // a busier ~/.claude: 400 more sessions and 300 debug files, ages 1.5 to 500 days, sizes 1-40 KB
  const r = rng(42);
  for (let i = 0; i < 400; i++) {
    const a = 1.5 + r() * r() * 500;
    const rel = `.claude/projects/-work-p${i % 7}/${SESSION(1000 + i)}`;
    put(home, `${rel}.jsonl`, Math.floor(1000 + r() * 40_000), a, nowSec);
    if (r() < 0.6) {
      put(home, `${rel}/tool-results/t.txt`, Math.floor(r() * 20_000), a, nowSec);
      ageTree(path.join(home, rel), a, nowSec);
    }
  }
  for (let i = 0; i < 300; i++)
    put(home, `.claude/debug/x${i}.txt`, Math.floor(500 + r() * 8000), 1.5 + r() * 120, nowSec);
  kubeletWalk(home); // every ctime now, as on a Kubernetes workspace: the preview and the job must still agree
  const scan = await scanRoots(discoverRoots({ home, env: ENV(home) }), nowSec, { home, protect: readProtect(home) });
  roots = scan.roots;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function usageOf(id: RecipeId): RecipeUsage[] {
  return roots.flatMap((r) => (r.recipes?.[id] ? [r.recipes[id]!] : []));
}

async function dryRun(id: RecipeId, params: RecipeParams) {
  return runCleanup(job({ recipe: id, params, dryRun: true, minAgeHours: 1 }), cleanupContext(home));
}

describe("recipe usage in the report", () => {
  for (const r of RECIPES) {
    it(`${r.id}: the scan counts the units and bytes a job finds`, async () => {
      const usage = usageOf(r.id);
      const all = await dryRun(r.id, { olderThanDays: 0 });
      expect(all.errors).toEqual([]);
      // a recipe that always keeps its newest units finds them all the same
      const kept = all.skipped.filter((s) => s.reason === "kept");
      expect(kept.length).toBe((r.keepNewestAtLeast ?? 0) * usage.filter((u) => u.units > 0).length);
      expect(usage.reduce((s, u) => s + u.units, 0)).toBe(all.units.length + kept.length);
      expect(usage.reduce((s, u) => s + u.bytes, 0)).toBe(all.bytesActed + kept.reduce((s, k) => s + k.bytes, 0));
      for (const u of usage) {
        expect(u.byAge.reduce((s, b) => s + b[0], 0)).toBe(u.units);
        expect(u.byAge.reduce((s, b) => s + b[1], 0)).toBe(u.bytes);
      }
    });
  }

  const cases: [RecipeId, RecipeParams][] = [
    ["claude-code-sessions", { olderThanDays: 30 }],
    ["claude-code-sessions", { olderThanDays: 40 }],
    ["claude-code-sessions", { olderThanDays: 100 }],
    ["claude-code-sessions", { keepNewest: 50 }],
    ["claude-code-sessions", { olderThanDays: 14, keepNewest: 150 }],
    ["claude-code-sessions", { capBytes: 4_000_000 }],
    ["claude-code-debug", { olderThanDays: 7 }],
    ["claude-code-debug", { olderThanDays: 25 }],
  ];
  it("a preview from the age steps predicts the dry run's bytes within a few percent", async () => {
    const lines: string[] = [];
    for (const [id, params] of cases) {
      const usage = usageOf(id);
      const dry = await dryRun(id, params);
      const preview = usage
        .map((u) => previewFromUsage(u, params))
        .reduce((a, b) => ({ units: a.units + b.units, bytes: a.bytes + b.bytes }), { units: 0, bytes: 0 });
      const diff = dry.bytesActed === 0 ? 0 : (preview.bytes - dry.bytesActed) / dry.bytesActed;
      lines.push(
        `${id} ${JSON.stringify(params)}: dry run ${dry.units.length} units ${dry.bytesActed} B, preview ${preview.units} units ${preview.bytes} B (${(diff * 100).toFixed(2)} %)`,
      );
      expect(Math.abs(diff), lines.at(-1)).toBeLessThan(0.05);
    }
    console.log("preview vs dry run:\n" + lines.join("\n"));
  });
});
