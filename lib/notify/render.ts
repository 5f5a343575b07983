import { REPORTER_DIR } from "@/lib/catalog/recipes";
import { formatBytes } from "@/lib/format/bytes";
import type { Action, Notice } from "./types";

// The words of a notice, in plain text (email), Markdown (the webhook's `text`, as Slack and Mattermost show it)
// and HTML (email). Whatever a workspace, an owner or a file is called comes from the workspaces and is escaped in
// each form: a folder named `*[x](http://evil)*` shows as those characters, never as a link.

const TITLES: Record<Notice["kind"], string> = {
  full: "is full",
  filling: "is filling",
  "growing-file": "has a file growing fast",
  "lost-at-restart": "keeps agents' data that a restart loses",
  "cleanup-ahead": "will be cleaned up",
};

/** The owner's protect file (docs/cleanup.md): what it lists, no cleanup touches. */
export const PROTECT_FILE = `~/${REPORTER_DIR}/protect`;

/** The page of the workspace on the dashboard. */
export const workspaceLink = (appUrl: string, workspaceId: string) =>
  `${appUrl.replace(/\/+$/, "")}/workspaces/${encodeURIComponent(workspaceId)}`;

export const noticeSubject = (n: Notice) => `Workspace ${n.workspace.name} ${TITLES[n.kind]}: ${n.figure}`;

function actionWords(a: Action): string {
  switch (a.type) {
    case "recipe":
      return `Run the cleanup "${a.title}" (frees ${formatBytes(a.bytes)}) from the workspace's page.`;
    case "grow-disk":
      return "Ask your admin to grow the disk: no cleanup frees enough.";
    case "persist":
      return `Keep ${a.paths.join(", ")} on the persistent volume (a volume mount, or the home folder), or copy out what you need before the next restart.`;
    case "protect":
      return `To keep any of it, add its path relative to your home folder (globs allowed, one a line) to ${PROTECT_FILE} in the workspace before ${a.at.slice(0, 16).replace("T", " ")} UTC; or ask your admin about the policy "${a.policy}".`;
  }
}

type Parts = { headline: string; causes: string[]; action: string; link: string };

function parts(n: Notice, appUrl: string): Parts {
  return {
    headline: noticeSubject(n),
    causes: n.causes.map((c) => `${c.agent}: ${c.path} (${formatBytes(c.bytes)})`),
    action: actionWords(n.action),
    link: workspaceLink(appUrl, n.workspace.id),
  };
}

export function noticeText(n: Notice, appUrl: string): string {
  const p = parts(n, appUrl);
  const causes = p.causes.length ? ["Largest:", ...p.causes.map((c) => `  - ${c}`)] : [];
  return [p.headline, ...causes, `What to do: ${p.action}`, p.link].join("\n");
}

/**
 * A Coder Inbox notice: the subject as its title; the causes and the action as its text, and the workspace's page
 * apart, so the reporter can cut the text to Coder's limit and keep the link whole.
 */
export function noticeInbox(n: Notice, appUrl: string): { title: string; text: string; link: string } {
  const p = parts(n, appUrl);
  const causes = p.causes.length ? ["Largest:", ...p.causes.map((c) => `- ${c}`)] : [];
  return { title: p.headline, text: [...causes, `What to do: ${p.action}`].join("\n"), link: p.link };
}

/** Markdown's special characters behind a backslash; &, < and > as entities (Slack reads those three as markup). */
export function escapeMarkdown(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (c) => `\\${c}`);
}

export function noticeMarkdown(n: Notice, appUrl: string): string {
  const p = parts(n, appUrl);
  const causes = p.causes.map((c) => `• ${escapeMarkdown(c)}`);
  return [`*${escapeMarkdown(p.headline)}*`, ...causes, escapeMarkdown(p.action), p.link].join("\n");
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );
}

export function noticeHtml(n: Notice, appUrl: string): string {
  const p = parts(n, appUrl);
  const causes = p.causes.length ? `<ul>${p.causes.map((c) => `<li>${escapeHtml(c)}</li>`).join("")}</ul>` : "";
  return `<h3>${escapeHtml(p.headline)}</h3>${causes}<p>${escapeHtml(p.action)}</p><p><a href="${escapeHtml(p.link)}">Open the workspace</a></p>`;
}
