import { describe, expect, it } from "vitest";
import { escapeMarkdown, noticeHtml, noticeMarkdown, noticeText } from "./render";
import type { Notice } from "./types";

const HOSTILE = "*[x](http://evil.example)*<script>&";

const notice: Notice = {
  kind: "full",
  stateKey: "full",
  level: 1,
  workspace: { id: "ws 1", name: "dev", owner: "alice" },
  figure: "97 % used",
  causes: [{ agent: "claude-code", path: `.claude/${HOSTILE}`, bytes: 5 * 1024 ** 3 }],
  action: { type: "grow-disk" },
  decidedAt: "2026-11-20T10:00:00.000Z",
};

describe("render", () => {
  it("says the workspace, the figure, the largest cause, the action and the link", () => {
    const text = noticeText(notice, "https://storage.example.com/");
    expect(text).toContain("Workspace dev is full: 97 % used");
    expect(text).toContain("claude-code: .claude/");
    expect(text).toContain("(5 GiB)");
    expect(text).toContain("Ask your admin to grow the disk");
    expect(text).toContain("https://storage.example.com/workspaces/ws%201");
  });

  it("escapes a file's name in HTML: no element or attribute comes from it", () => {
    const html = noticeHtml(notice, "https://s.example.com");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;&amp;");
  });

  it("escapes a file's name in Markdown: no link, emphasis or markup comes from it", () => {
    const md = noticeMarkdown(notice, "https://s.example.com");
    expect(md).not.toContain("[x](");
    expect(md).not.toContain("<script>");
    expect(escapeMarkdown(HOSTILE)).toBe("\\*\\[x\\]\\(http://evil\\.example\\)\\*&lt;script&gt;&amp;");
  });
});
