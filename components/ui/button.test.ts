import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Button, type ButtonProps } from "./button";

const html = (props: ButtonProps) => renderToStaticMarkup(createElement(Button, props, "Save"));

describe("Button", () => {
  it("is a plain house button that submits nothing unless told", () => {
    expect(html({})).toBe('<button type="button" class="button">Save</button>');
    expect(html({ type: "submit" })).toBe('<button type="submit" class="button">Save</button>');
  });

  it("draws the primary, small and bare looks with the caller's own classes", () => {
    expect(html({ variant: "primary", className: "long-label" })).toContain('class="button primary long-label"');
    expect(html({ size: "small" })).toContain('class="button small"');
    expect(html({ variant: "bare", className: "sort-button" })).toContain('class="sort-button"');
    expect(html({ variant: "bare" })).toBe('<button type="button">Save</button>');
  });

  it("is disabled and busy while its action runs, and disabled alone when told", () => {
    expect(html({ pending: true })).toBe(
      '<button type="button" class="button" disabled="" aria-busy="true">Save</button>',
    );
    expect(html({ disabled: true })).toBe('<button type="button" class="button" disabled="">Save</button>');
  });

  it("forwards the native attributes a test or a screen reader finds it by", () => {
    const out = html({
      "aria-pressed": true,
      "aria-label": "Toggle",
      title: "Toggle",
      "data-testid": "t",
    } as ButtonProps);
    expect(out).toContain('aria-pressed="true"');
    expect(out).toContain('aria-label="Toggle"');
    expect(out).toContain('data-testid="t"');
  });
});
