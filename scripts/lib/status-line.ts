// One status line for work that runs side by side (`npm run demo` builds the app while it loads the fleet): each
// task's stage, the share of the whole that is done and how long the rest should take. On a terminal it is one
// line redrawn in place with a bar; into a file or a pipe (nothing to redraw) it is a plain line when a stage
// changes and at most every `everyMs` otherwise, never a carriage return. Other messages are written whole, above
// the status line.

export type StatusOut = { write(text: string): unknown; isTTY?: boolean; columns?: number };

export type Task = {
  /** What it is doing now, e.g. "next build" or "loading reports". */
  stage: string;
  /** How far, e.g. "4,200/12,346": it changes without a plain line being written. */
  detail?: string;
  /** Seconds it should still take; null while unknown. */
  secondsLeft: number | null;
};

export type StatusLine = {
  /** Sets a task's stage and estimate (a task that is done: `done`). */
  update(name: string, task: Task): void;
  done(name: string): void;
  /** A whole line, above the status line. */
  line(text: string): void;
  /** Leaves the last status as a line of its own. */
  end(): void;
};

const CLEAR_LINE = "\r\x1b[K";
const BAR = 20;

export function formatSeconds(s: number): string {
  const r = Math.max(0, Math.round(s));
  return r < 60 ? `${r} s` : `${Math.floor(r / 60)} min ${String(r % 60).padStart(2, "0")} s`;
}

export function statusLine(
  out: StatusOut,
  opts: { prefix: string; everyMs?: number; now?: () => number } = { prefix: "" },
): StatusLine {
  const now = opts.now ?? Date.now;
  const everyMs = opts.everyMs ?? 15_000;
  const started = now();
  const tasks = new Map<string, Task | null>();
  let shown = "";
  let lastStages = "";
  let lastPlain = -Infinity;

  function render(): string {
    const running = [...tasks].filter((e): e is [string, Task] => e[1] !== null);
    const stages = running.map(([name, t]) => `${name}: ${t.stage}${t.detail ? ` ${t.detail}` : ""}`).join(" · ");
    const estimates = running.map(([, t]) => t.secondsLeft);
    const left = estimates.includes(null) ? null : Math.max(0, ...(estimates as number[]));
    const eta = left === null ? "" : ` · about ${formatSeconds(left)} left`;
    if (!out.isTTY) return `${opts.prefix}${stages}${eta}`;
    const elapsed = (now() - started) / 1000;
    const share = left === null ? 0 : elapsed / (elapsed + left);
    const filled = Math.round(share * BAR);
    const bar = `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${String(Math.round(share * 100)).padStart(3)}%`;
    const text = `${opts.prefix}${bar} ${stages}${eta}`;
    // Wider than the terminal it would wrap, and "\r" would then redraw only its last row.
    return out.columns && text.length >= out.columns ? `${text.slice(0, out.columns - 2)}…` : text;
  }

  function draw() {
    const text = render();
    if (out.isTTY) {
      if (text !== shown) out.write(`${CLEAR_LINE}${text}`);
      shown = text;
      return;
    }
    const stages = [...tasks].map(([name, t]) => `${name}:${t?.stage ?? "done"}`).join();
    if (stages === lastStages && now() - lastPlain < everyMs) return;
    lastStages = stages;
    lastPlain = now();
    out.write(`${text}\n`);
  }

  return {
    update(name, task) {
      tasks.set(name, task);
      draw();
    },
    done(name) {
      tasks.set(name, null);
      if ([...tasks.values()].some((t) => t !== null)) draw();
    },
    line(text) {
      out.write(shown ? `${CLEAR_LINE}${text}\n${shown}` : `${text}\n`);
    },
    end() {
      if (shown) out.write("\n");
      shown = "";
    },
  };
}
