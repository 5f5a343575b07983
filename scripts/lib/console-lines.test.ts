import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { consoleLines } from "./console-lines";

/** What a terminal shows for `written`: "\r\x1b[K" clears the line the cursor is on. */
function screen(written: string): string[] {
  return written.split("\n").map((line) => line.split("\r\x1b[K").pop()!);
}

/** The demo's seeding progress while the build prints: 20 reports, a build line after every third. */
async function demo(isTTY: boolean) {
  let written = "";
  const out = consoleLines({ isTTY, write: (t: string) => (written += t) });
  const build = new PassThrough();
  const piped = out.pipe(build, "[build] ");
  for (let done = 1; done <= 20; done++) {
    out.progress(`[demo] ${done}/20 reports`, done, 20);
    if (done % 3 === 0) build.write(`  ✓ step ${done}\n`);
    await new Promise((r) => setImmediate(r));
  }
  out.endProgress();
  build.end();
  await piped;
  out.line("[demo] stored 20 reports");
  return written;
}

describe("a console shared by the seeding's progress and the build's output", () => {
  it("on a terminal, keeps every build line whole and the progress on the last line", async () => {
    const lines = screen(await demo(true));
    expect(lines.filter((l) => l.startsWith("[build]"))).toEqual(
      [3, 6, 9, 12, 15, 18].map((n) => `[build]   ✓ step ${n}`),
    );
    // Every line is one writer's: no progress ran into a build line.
    for (const l of lines) expect(l).not.toMatch(/reports.*✓|✓.*reports/);
    expect(lines.filter((l) => l.startsWith("[demo]"))).toEqual(["[demo] 20/20 reports", "[demo] stored 20 reports"]);
  });

  it("into a file, writes progress as lines of their own, the first and then at each tenth, never a carriage return", async () => {
    const written = await demo(false);
    expect(written).not.toContain("\r");
    const lines = written.split("\n").filter(Boolean);
    expect(lines.filter((l) => l.startsWith("[build]"))).toHaveLength(6);
    expect(lines.filter((l) => /^\[demo\] \d+\/20 reports$/.test(l))).toEqual(
      [1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20].map((n) => `[demo] ${n}/20 reports`),
    );
  });
});
