import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { knownFreeOfBadText, MAX_DEPTH, parseJsonText } from "./text";
import { validate } from "./validate";

const anything = z.unknown();
const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

function refusal(text: string): string {
  try {
    validate(anything, parseJsonText(text));
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).message;
  }
  throw new Error("accepted");
}

describe("parseJsonText: values that skip the walk for bad text", () => {
  it("marks text with no NUL or surrogate escape, nested within bounds", () => {
    expect(knownFreeOfBadText(parseJsonText('{"path":"a/b","n":[1,{"x":"\\u00e9\\n"}]}'))).toBe(true);
    expect(knownFreeOfBadText(parseJsonText(nested(MAX_DEPTH)))).toBe(true);
  });

  it("leaves text that may hold bad text to the walk, which still refuses it", () => {
    for (const text of ['{"a":"x\\u0000y"}', '{"a":"\\ud800"}', '{"a\\uDC00":1}']) {
      expect(knownFreeOfBadText(parseJsonText(text))).toBe(false);
    }
    expect(refusal('{"roots":[{"path":"x\\u0000y"}]}')).toBe("In the body, roots[0].path contains a NUL character.");
    expect(refusal('{"a":"\\ud800"}')).toBe("In the body, a contains a lone UTF-16 surrogate (not a character).");
  });

  it("counts nesting outside strings only, and leaves deep values to the walk", () => {
    expect(knownFreeOfBadText(parseJsonText(`{"a":"${"[".repeat(100)}\\"{"}`))).toBe(true);
    expect(knownFreeOfBadText(parseJsonText(nested(MAX_DEPTH + 1)))).toBe(false);
    expect(refusal(nested(MAX_DEPTH + 2))).toMatch(/nests deeper than 32 levels/);
  });

  it("takes an escaped backslash before u0000 for a possible NUL: only the walk is spent", () => {
    const value = parseJsonText('{"a":"\\\\u0000"}');
    expect(knownFreeOfBadText(value)).toBe(false);
    expect(validate(anything, value)).toEqual({ a: "\\u0000" });
  });

  it("marks objects only: a parsed string or number is always walked", () => {
    expect(knownFreeOfBadText(parseJsonText('"text"'))).toBe(false);
    expect(knownFreeOfBadText(parseJsonText("3"))).toBe(false);
  });
});
