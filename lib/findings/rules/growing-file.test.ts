import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { FLEET } from "@/lib/db/scope";
import { listFindings } from "@/lib/db/queries/findings";
import { updateRules } from "@/lib/services/finding-rules";
import type { LargestEntry, StorageRoot } from "@/lib/report-format/schema";
import { discoverRoots } from "@/lib/reporter/scan/roots";
import { scanRoots } from "@/lib/reporter/scan/scan-roots";
import { at, enroll, GiB, MiB, send, testNow, type RootSpec } from "@/tests/support/reports";

// The growing-file finding over real ingested reports: a Codex home scanned by the reporter with a 1 GiB
// codex-tui.log (its blocks allocated, as a real log's are), and hand-made reports of files that grow by a
// day's figure across a week.

const now = testNow();
const file = (p: string, bytes: number): LargestEntry => ({ path: p, bytes, mtime: at(now, 0), type: "file" });
const codex = (largest: LargestEntry[]): RootSpec => ({ key: "codex:data", agent: "codex", bytes: 3 * GiB, largest });

/** Reports per workspace: [days ago, largest entries]. */
const HISTORY: Record<string, [number, LargestEntry[]][]> = {
  // 50 MiB eight days ago, 930 MiB now: 110 MiB a day, under 1 GiB
  "growing-db": [
    [8, [file("logs_2.sqlite", 50 * MiB)]],
    [0, [file("logs_2.sqlite", 930 * MiB)]],
  ],
  // 50 MiB a day: neither large nor fast enough
  slow: [
    [8, [file("log/codex-tui.log", 500 * MiB)]],
    [0, [file("log/codex-tui.log", 900 * MiB)]],
  ],
  // a report only 3 days earlier: no growth over 7 days is known
  "too-recent": [
    [3, [file("log/codex-tui.log", 100 * MiB)]],
    [0, [file("log/codex-tui.log", 900 * MiB)]],
  ],
  // large, but a session and a file that is neither a log nor a database
  "not-a-log": [
    [
      0,
      [
        { ...file("sessions/2026/11/01/rollout-1.jsonl", 2 * GiB), type: "session" },
        file("packages/standalone/releases/0.149.1/bin/codex", 2 * GiB),
      ],
    ],
  ],
};

let tmp: string;
let scanned: StorageRoot;
/** du's figure for the log: its allocated blocks, as the reporter counts them. */
let logBytes: number;

beforeAll(async () => {
  // The reporter's own figures for a home whose Codex log reached 1 GiB.
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "growing-file-")));
  const log = path.join(tmp, ".codex/log/codex-tui.log");
  fs.mkdirSync(path.dirname(log), { recursive: true });
  execFileSync("fallocate", ["-l", String(GiB), log]);
  logBytes = Number(execFileSync("du", ["-B1", log], { encoding: "utf8" }).split("\t")[0]);
  const r = await scanRoots(discoverRoots({ home: tmp, env: {} }), Math.floor(now.getTime() / 1000), { home: tmp });
  scanned = r.roots.find((x) => x.key === "codex:data")!;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describeEachDatabase("the growing-file finding", (t) => {
  beforeAll(async () => {
    const db = t.current.db;
    await enroll(db, { id: "big-log", owner: "olga" });
    await send(db, { id: "big-log", owner: "olga" }, at(now, 0), [scanned]);
    for (const [id, reports] of Object.entries(HISTORY)) {
      await enroll(db, { id, owner: "olga" });
      for (const [daysAgo, largest] of reports)
        await send(db, { id, owner: "olga" }, at(now, daysAgo), [codex(largest)]);
    }
  });

  it("names a 1 GiB log and a database growing 110 MiB a day, with what to do", async () => {
    const l = await listFindings(t.current.db, FLEET, { now, rule: "growing-file" });
    const found = Object.fromEntries(l.findings.map((f) => [f.workspace.id, f]));
    expect(Object.keys(found).sort()).toEqual(["big-log", "growing-db"]);

    const log = found["big-log"];
    expect(log).toMatchObject({ rootKey: "codex:data", path: "log/codex-tui.log", value: logBytes, threshold: 0 });
    expect(logBytes).toBeGreaterThanOrEqual(GiB);
    expect(log.message).toBe(
      "log/codex-tui.log in codex:data is 1 GiB: one log file that only grows, which no age rule reaches.",
    );
    expect(log.action).toMatch(/^Truncate it \(the reporter refuses while Codex or any process holds it open/);

    const db = found["growing-db"];
    expect(db.path).toBe("logs_2.sqlite");
    expect(db.value).toBe(930 * MiB);
    expect(db.threshold).toBeCloseTo(110 * MiB, 0);
    expect(db.message).toContain("growing by 110 MiB a day");
    expect(db.action).toContain("never truncated nor deleted in part");
    expect(db.action).toContain("VACUUM");
  });

  it("follows the admin's thresholds", async () => {
    const db = t.current.db;
    await updateRules(
      db,
      { rules: [{ id: "growing-file", params: { bytes: 2 * GiB, bytesPerDay: 40 * MiB } }] },
      TEST_WHO,
    );
    const l = await listFindings(db, FLEET, { now, rule: "growing-file" });
    // the 1 GiB log is under the new size; the slow log's 50 MiB a day is over the new rate
    expect(l.findings.map((f) => f.workspace.id).sort()).toEqual(["growing-db", "slow"]);
    await updateRules(
      db,
      { rules: [{ id: "growing-file", params: { bytes: GiB, bytesPerDay: 100 * MiB } }] },
      TEST_WHO,
    );
  });
});
