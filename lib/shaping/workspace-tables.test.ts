import { describe, expect, it } from "vitest";
import type { VolumeSummary } from "@/lib/db/queries/volume";
import type { WorkspaceDetail } from "@/lib/db/queries/workspace-detail";
import { ageRows, categoryTotals, largestEntries, usageSeries, volumeRows } from "./workspace-tables";

describe("volumeRows", () => {
  const current: VolumeSummary = {
    sizeBytes: 110,
    usedBytes: 60,
    availBytes: 40,
    usePercent: 60,
    inodes: null,
    full: false,
    inodesFull: false,
  };
  const volume: WorkspaceDetail["volume"] = {
    history: [
      { day: "2026-01-01", usedBytes: null, capacityBytes: null, reported: false },
      { day: "2026-01-02", usedBytes: 50, capacityBytes: 100, reported: true },
      { day: "2026-01-03", usedBytes: 60, capacityBytes: 100, reported: true },
    ],
    forecast: {
      slopeBytesPerDay: 10,
      fullAt: "2026-01-07T00:00:00Z",
      points: [
        { day: "2026-01-04", usedBytes: 70 },
        { day: "2026-01-05", usedBytes: 80 },
      ],
    },
  };
  it("appends forecast days and joins the lines at the last known day", () => {
    const rows = volumeRows(volume, current);
    expect(rows.map((r) => r.day)).toEqual(["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"]);
    // Capacity is Used + Avail (what can still be filled), not df's Size: 100, not 110.
    expect(rows[0]).toEqual({ day: "2026-01-01", used: null, forecast: null, capacity: 100 });
    expect(rows[2].forecast).toBe(60);
    expect(rows[4]).toEqual({ day: "2026-01-05", used: null, forecast: 80, capacity: 100 });
  });
  it("draws no forecast when not growing", () => {
    const rows = volumeRows({ ...volume, forecast: { slopeBytesPerDay: null, fullAt: null, points: [] } }, current);
    expect(rows.every((r) => r.forecast === null)).toBe(true);
    expect(rows).toHaveLength(3);
  });
});

describe("categoryTotals", () => {
  it("sums categories across roots, largest first, skipping empty ones", () => {
    expect(
      categoryTotals([
        { categories: { sessions: { bytes: 10, files: 1 }, logs: { bytes: 5, files: 2 } } },
        { categories: { logs: { bytes: 20, files: 3 } } },
      ]),
    ).toEqual([
      { category: "logs", bytes: 25, files: 5 },
      { category: "sessions", bytes: 10, files: 1 },
    ]);
  });
});

describe("ageRows and largestEntries", () => {
  it("makes one row per root with every bucket", () => {
    expect(
      ageRows([
        { key: "a", bytes: 3, ages: { "1d": { bytes: 1, files: 1 }, older: { bytes: 2, files: 1 } } },
        { key: "b", bytes: 0, ages: {} },
      ]),
    ).toEqual([{ root: "a", "1d": 1, "7d": 0, "30d": 0, "90d": 0, older: 2 }]);
  });
  it("merges entries across roots, leaving the sessions to their own table", () => {
    const rows = largestEntries([
      { key: "a", agent: "codex", largest: [{ path: "x", bytes: 5, mtime: "t", type: "file" }] },
      {
        key: "b",
        agent: "gemini",
        largest: [
          { path: "y", bytes: 9, mtime: "t", type: "session" },
          { path: "z", bytes: 7, mtime: "t", type: "dir" },
        ],
      },
    ]);
    expect(rows.map((r) => `${r.rootKey}:${r.path}`)).toEqual(["b:z", "a:x"]);
  });
});

describe("usageSeries", () => {
  it("folds script-data folders into one series and keeps the other roots as they are", () => {
    const usage = {
      roots: [
        { key: "claude-code:data", agent: "claude-code", kind: "tool" },
        { key: "script-data:aaaa", agent: "other", kind: "script-data" },
        { key: "script-data:bbbb", agent: "other", kind: "script-data" },
      ],
      points: [
        { day: "2026-11-01", values: { "claude-code:data": 10, "script-data:aaaa": 3 }, total: 13, reported: true },
        {
          day: "2026-11-02",
          values: { "claude-code:data": 12, "script-data:aaaa": 3, "script-data:bbbb": 4 },
          total: 19,
          reported: true,
        },
      ],
    } as unknown as Parameters<typeof usageSeries>[0];
    const out = usageSeries(usage);
    expect(out.folded).toBe(2);
    expect(out.roots.map((r) => r.key)).toEqual(["claude-code:data", "script-data"]);
    expect(out.points.map((p) => p.values)).toEqual([
      { "claude-code:data": 10, "script-data": 3 },
      { "claude-code:data": 12, "script-data": 7 },
    ]);
  });
});
