import { describe, expect, it } from "vitest";
import { formatSeconds, statusLine } from "./status-line";

/** What a terminal shows for `written`: "\r\x1b[K" clears the line the cursor is on. */
function screen(written: string): string[] {
  return written.split("\n").map((line) => line.split("\r\x1b[K").pop()!);
}

/** The demo's two tasks over 20 s: the build changes stage at 8 s, the fleet loads 100 reports a second. */
function demo(isTTY: boolean) {
  let written = "";
  let t = 0;
  const status = statusLine({ isTTY, write: (s: string) => (written += s) }, { prefix: "[demo] ", now: () => t });
  for (t = 0; t <= 20_000; t += 1000) {
    status.update("build", { stage: t < 8000 ? "bundling" : "next build", secondsLeft: 30 - t / 1000 });
    status.update("fleet", { stage: "loading reports", detail: `${t / 10}/2000`, secondsLeft: 20 - t / 1000 });
    if (t === 5000) status.line("[demo] a message");
  }
  status.done("fleet");
  status.end();
  return written;
}

describe("the demo's status line", () => {
  it("on a terminal, is one line redrawn in place, with a bar, each task's stage and the longest one's time left", () => {
    const lines = screen(demo(true));
    // The fleet is done: the build's stage and time left stay.
    expect(lines).toEqual([
      "[demo] a message",
      "[demo] [##############------]  68% build: next build · about 10 s left",
      "",
    ]);
  });

  it("into a file, writes a plain line when a stage changes and every 15 s, never a carriage return", () => {
    const written = demo(false);
    expect(written).not.toContain("\r");
    expect(written.split("\n").filter(Boolean)).toEqual([
      "[demo] build: bundling · about 30 s left",
      "[demo] build: bundling · fleet: loading reports 0/2000 · about 30 s left",
      "[demo] a message",
      "[demo] build: next build · fleet: loading reports 700/2000 · about 22 s left",
      "[demo] build: next build · about 10 s left",
    ]);
  });

  it("says minutes and seconds", () => {
    expect([formatSeconds(4.4), formatSeconds(75), formatSeconds(600)]).toEqual(["4 s", "1 min 15 s", "10 min 00 s"]);
  });
});
