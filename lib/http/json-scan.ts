// A pass over JSON text before JSON.parse sees it, a slice at a time with the event loop free between slices:
// it refuses an array or object with too many items and nesting too deep as soon as it reaches them (a 32 KB
// gzip body of 11 million `{}` once cost 11 s of JSON.parse and 1.3 GB before the schema's `.max` refused it),
// and it lifts the elements of the top-level arrays named in `split` out of the text one by one, so that a body
// of 100,000 units is parsed and validated element by element rather than in one call that holds the thread for
// seconds. No library does both while leaving the parsing itself to the native JSON.parse.
import { setImmediate as nextTurn } from "node:timers/promises";
import { BadRequestError, PayloadTooLargeError } from "@/lib/errors";

export type ScanLimits = {
  /** Most elements of any array and most members of any object. */
  maxItems: number;
  maxDepth: number;
  /** Top-level keys whose array elements go to `onItem` instead of staying in the returned text. */
  split?: readonly string[];
  /** Largest text of one lifted element: one JSON.parse call stays short. */
  maxItemChars?: number;
  /** Called with each lifted element's text, in order; may throw to refuse the body. */
  onItem?: (key: string, index: number, text: string) => void | Promise<void>;
};

/** Characters handled per step: about a millisecond of scanning here. */
const STEP_CHARS = 256 * 1024;

const [QUOTE, BACKSLASH, COMMA, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [
  0x22, 0x5c, 0x2c, 0x7b, 0x7d, 0x5b, 0x5d,
];

const tooMany = (max: number) =>
  new PayloadTooLargeError(max, `An array or object of the body holds more than ${max} items.`);
const malformed = (why: string) =>
  new BadRequestError(`The body is not valid JSON: ${why}.`, undefined, "malformed_json");

/**
 * Scans `text` in steps and returns it with the lifted arrays left empty (`"units":[]`), ready for JSON.parse.
 * Malformed text outside the lifted elements is left for JSON.parse to refuse.
 */
export async function scanJson(text: string, limits: ScanLimits): Promise<string> {
  const scan = new Scan(text, limits);
  for (let from = 0; from < text.length; from += STEP_CHARS) {
    await scan.step(from, Math.min(text.length, from + STEP_CHARS));
    await nextTurn();
  }
  if (scan.lifting) throw malformed("an array is not closed");
  return scan.kept.join("");
}

/** A key as JSON.parse reads it (`"\\u0075nits"` is `units`); text that is not a key is left for JSON.parse. */
function keyOf(raw: string): string {
  try {
    return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
  } catch {
    return raw;
  }
}

class Scan {
  /** Items (commas + 1) of each open container, outermost first; negative for objects. */
  private readonly open: number[] = [];
  private inString = false;
  private escaped = false;
  private key = "";
  private keyFrom = -1;
  private expectKey = false;
  /** The top-level key whose elements are being lifted, and where the current element starts. */
  lifting: string | null = null;
  private itemFrom = 0;
  private itemIndex = 0;
  private readonly lifted = new Set<string>();
  private keptFrom = 0;
  readonly kept: string[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: ScanLimits,
  ) {}

  async step(from: number, to: number) {
    const { text, open, limits } = this;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyFrom >= 0)
            [this.key, this.keyFrom, this.expectKey] = [keyOf(text.slice(this.keyFrom, i)), -1, false];
        }
        continue;
      }
      if (c === QUOTE) {
        this.inString = true;
        if (open.length === 1 && open[0] < 0 && this.expectKey) this.keyFrom = i + 1;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (open.length >= limits.maxDepth) throw malformed(`it nests deeper than ${limits.maxDepth} levels`);
        open.push(c === OPEN_OBJECT ? -1 : 1);
        if (open.length === 1) this.expectKey = c === OPEN_OBJECT;
        else if (open.length === 2 && c === OPEN_ARRAY && open[0] < 0 && limits.split?.includes(this.key)) {
          // JSON.parse keeps a repeated key's last value; lifting both would keep both
          if (this.lifted.has(this.key)) throw malformed(`${this.key} appears twice`);
          this.lifted.add(this.key);
          [this.lifting, this.itemIndex, this.itemFrom] = [this.key, 0, i + 1];
          this.kept.push(text.slice(this.keptFrom, i + 1));
        }
      } else if (c === COMMA && open.length) {
        const depth = open.length - 1;
        open[depth] += open[depth] < 0 ? -1 : 1;
        if (Math.abs(open[depth]) > limits.maxItems) throw tooMany(limits.maxItems);
        if (depth === 0) this.expectKey = open[0] < 0;
        if (depth === 1 && this.lifting) await this.lift(i, false);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (open.length === 2 && this.lifting && c === CLOSE_ARRAY) {
          await this.lift(i, true);
          [this.lifting, this.keptFrom] = [null, i];
        }
        open.pop();
      }
    }
    if (!this.lifting && to === text.length) this.kept.push(text.slice(this.keptFrom));
    if (this.lifting && this.itemFrom < to - (limits.maxItemChars ?? Infinity)) throw this.itemTooLarge();
  }

  /** Hands the element ending at `end` to onItem; an empty one is a stray comma (or `[]` when it closes). */
  private async lift(end: number, closing: boolean) {
    const item = this.text.slice(this.itemFrom, end);
    this.itemFrom = end + 1;
    if (item.length > (this.limits.maxItemChars ?? Infinity)) throw this.itemTooLarge();
    if (!item.trim()) {
      if (closing && this.itemIndex === 0) return;
      throw malformed(`an element of ${this.lifting} is missing`);
    }
    await this.limits.onItem?.(this.lifting!, this.itemIndex++, item);
  }

  private itemTooLarge() {
    return new PayloadTooLargeError(
      this.limits.maxItemChars!,
      `An element of ${this.lifting} is larger than ${this.limits.maxItemChars} characters.`,
    );
  }
}
