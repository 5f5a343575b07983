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

const growing: Notice = {
  ...notice,
  kind: "growing-file",
  stateKey: "growing:x",
  figure: `.claude/${HOSTILE} grew by 3 GiB in a day`,
  action: { type: "recipe", recipeId: "claude-code-sessions", title: "Old sessions", bytes: 2 * 1024 ** 3 },
};
const cleanup: Notice = {
  ...notice,
  kind: "cleanup-ahead",
  stateKey: "cleanup:p:t",
  figure: 'the policy "nightly" deletes 2 GiB of Old sessions at 2026-11-21 03:00 UTC',
  action: { type: "protect", policy: "nightly", at: "2026-11-21T03:00:00.000Z", paths: [`.claude/${HOSTILE}`] },
};

describe("render", () => {
  it("says each kind's workspace, figure, causes, action and link", () => {
    const g = noticeText(growing, "https://s.example.com");
    expect(g).toContain("Workspace dev has a file growing fast: .claude/");
    expect(g).toContain('Run the cleanup "Old sessions" (frees 2 GiB)');
    expect(g).toContain("https://s.example.com/workspaces/ws%201");
    const c = noticeText(cleanup, "https://s.example.com");
    expect(c).toContain('Workspace dev will be cleaned up: the policy "nightly" deletes 2 GiB');
    expect(c).toContain("~/.coder-modules/coder/storage-reporter/protect");
    expect(c).toContain("before 2026-11-21 03:00 UTC");
  });

  it("escapes the file names of the new kinds in HTML and Markdown", () => {
    for (const n of [growing, cleanup]) {
      const html = noticeHtml(n, "https://s.example.com");
      expect(html).not.toContain("<script>");
      expect(html).toContain("&lt;script&gt;");
      const md = noticeMarkdown(n, "https://s.example.com");
      expect(md).not.toContain("[x](");
      expect(md).not.toContain("<script>");
    }
  });

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
