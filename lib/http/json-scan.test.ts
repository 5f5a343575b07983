import { describe, expect, it } from "vitest";
import { scanJson } from "./json-scan";

const limits = { maxItems: 5, maxDepth: 4 };

/** Scans with `units` and `skipped` lifted; returns the kept text and what was lifted, in order. */
async function lift(text: string, extra: Partial<Parameters<typeof scanJson>[1]> = {}) {
  const lifted: [string, number, unknown][] = [];
  const kept = await scanJson(text, {
    ...limits,
    split: ["units", "skipped"],
    onItem: (key, index, item) => void lifted.push([key, index, JSON.parse(item)]),
    ...extra,
  });
  return { kept: JSON.parse(kept) as unknown, lifted };
}

describe("scanJson", () => {
  it("lifts the named arrays' elements one by one and keeps the rest, those arrays empty", async () => {
    const body = { a: 'x,[]{}"\\', units: [{ p: "a,]" }, 2, [3]], b: [1, 2], skipped: [], c: { units: [9] } };
    expect(await lift(JSON.stringify(body))).toEqual({
      kept: { ...body, units: [], skipped: [] },
      lifted: [
        ["units", 0, { p: "a,]" }],
        ["units", 1, 2],
        ["units", 2, [3]],
      ],
    });
  });

  it("knows a key written with escapes, as JSON.parse reads it", async () => {
    expect((await lift('{"\\u0075nits": [1, 2]}')).lifted).toEqual([
      ["units", 0, 1],
      ["units", 1, 2],
    ]);
  });

  it("refuses an over-long array at the item past the limit, having lifted no more", async () => {
    const seen: number[] = [];
    const body = `{"units":[${"{},".repeat(1_000_000)}{}]}`;
    await expect(
      scanJson(body, { ...limits, split: ["units"], onItem: (_, index) => void seen.push(index) }),
    ).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/more than 5 items/) });
    // the comma that announces a sixth item refuses the body before the fifth is even handed on
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it("refuses an over-long array or object anywhere, and nesting past the limit", async () => {
    await expect(scanJson(`{"a":{"b":[${"0,".repeat(5)}0]}}`, limits)).rejects.toMatchObject({ status: 413 });
    await expect(scanJson(`{${'"k":0,'.repeat(5)}"z":0}`, limits)).rejects.toMatchObject({ status: 413 });
    await expect(scanJson("[".repeat(5) + "]".repeat(5), limits)).rejects.toMatchObject({ status: 400 });
    expect(await scanJson(`[${"0,".repeat(4)}0]`, limits)).toBe("[0,0,0,0,0]");
  });

  it("refuses an element longer than the limit, a missing element and a lifted key given twice", async () => {
    await expect(lift(`{"units":["${"x".repeat(100)}"]}`, { maxItemChars: 50 })).rejects.toMatchObject({
      status: 413,
    });
    await expect(lift('{"units":[1,,2]}')).rejects.toMatchObject({ status: 400 });
    await expect(lift('{"units":[1,]}')).rejects.toMatchObject({ status: 400 });
    await expect(lift('{"units":[1],"units":[2]}')).rejects.toMatchObject({ status: 400 });
  });
});
