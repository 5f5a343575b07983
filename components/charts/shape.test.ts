import { describe, expect, it } from "vitest";
import { formatBytes } from "@/lib/format/bytes";
import { bucketLabel, bytesTicks, isIsolated, orderByLast, rowTotal, sparklinePath, stackedMax, toRows } from "./shape";

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe("toRows", () => {
  it("pivots series into one row per day and keeps nulls", () => {
    const rows = toRows(
      ["2026-01-01", "2026-01-02"],
      [
        { key: "a", values: [1, 2] },
        { key: "b", values: [null, 5] },
      ],
    );
    expect(rows).toEqual([
      { day: "2026-01-01", a: 1, b: null },
      { day: "2026-01-02", a: 2, b: 5 },
    ]);
  });
});

describe("orderByLast and totals", () => {
  it("orders by the last known value", () => {
    const s = orderByLast([
      { key: "small", values: [9, 1] },
      { key: "big", values: [1, 10] },
      { key: "gap", values: [5, null] },
    ]);
    expect(s.map((x) => x.key)).toEqual(["big", "gap", "small"]);
  });
  it("sums visible keys only", () => {
    expect(rowTotal({ day: "x", a: 1, b: 2, c: null }, ["a", "c"])).toBe(1);
    expect(
      stackedMax(
        [
          { a: 1, b: 2 },
          { a: 5, b: 0 },
        ],
        ["a", "b"],
      ),
    ).toBe(5);
  });
});

describe("bytesTicks", () => {
  it("lands on round binary amounts covering the max", () => {
    const t = bytesTicks(3.4 * GiB);
    expect(t[0]).toBe(0);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(3.4 * GiB);
    expect(t.every((v) => (v / GiB) * 2 === Math.round((v / GiB) * 2))).toBe(true);
    expect(t.map((v) => formatBytes(v))).toEqual(["0 B", "1 GiB", "2 GiB", "3 GiB", "4 GiB"]);
  });
  it("handles small and empty ranges", () => {
    expect(bytesTicks(0)).toEqual([0, 1024]);
    expect(bytesTicks(700 * MiB).map((v) => formatBytes(v))).toEqual([
      "0 B",
      "200 MiB",
      "400 MiB",
      "600 MiB",
      "800 MiB",
    ]);
  });
});

describe("sparklinePath", () => {
  it("scales values into the box", () => {
    expect(sparklinePath([0, 10], 10, 10, 0)).toBe("M0.0,10.0L10.0,0.0");
  });
  it("breaks at nulls and draws flat series in the middle", () => {
    expect(sparklinePath([1, null, 1], 10, 10, 0)).toBe("M0.0,5.0M10.0,5.0");
    expect(sparklinePath([], 10, 10)).toBe("");
    expect(sparklinePath([null], 10, 10)).toBe("");
  });
});

describe("bucketLabel", () => {
  it("labels open and closed buckets", () => {
    expect(bucketLabel(0, MiB, formatBytes)).toBe("< 1 MiB");
    expect(bucketLabel(MiB, 4 * MiB, formatBytes)).toBe("1 MiB–4 MiB");
    expect(bucketLabel(64 * GiB, null, formatBytes)).toBe("≥ 64 GiB");
  });
});

import { pointsToRows } from "./shape";

describe("pointsToRows", () => {
  it("spreads values and leaves absent keys null", () => {
    expect(
      pointsToRows(
        [
          { day: "d1", values: { a: 1 } },
          { day: "d2", values: { a: 2, b: 3 } },
        ],
        ["a", "b"],
      ),
    ).toEqual([
      { day: "d1", a: 1, b: null },
      { day: "d2", a: 2, b: 3 },
    ]);
  });
});

import { shortRootKey } from "./shape";

describe("shortRootKey", () => {
  it("cuts UUIDs", () => {
    expect(shortRootKey("script-data:40aef9fc-6160-4231-b6a9-78b47d6bc43d")).toBe("script-data:40aef9fc…");
    expect(shortRootKey("coder/claude-code")).toBe("coder/claude-code");
  });
});

describe("isIsolated", () => {
  const rows = [{ a: null }, { a: 5 }, { a: null }, { a: 1 }, { a: 2 }, { a: 3 }];
  it("marks a value with no value beside it, and no other", () => {
    expect(rows.map((_, i) => isIsolated(rows, "a", i))).toEqual([false, true, false, false, false, false]);
    expect(isIsolated([{ a: 7 }], "a", 0)).toBe(true);
    expect(isIsolated([{ a: 7 }], "b", 0)).toBe(false);
  });
});
