import "server-only";
import { createHash } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { escapeHtml, noticeHtml, noticeSubject, noticeText } from "../render";
import type { Notice } from "../types";

// Email over SMTP with nodemailer: one message per owner a day (the digest), a full volume's notice at once on its
// own. STARTTLS is used whenever the server offers it; `?requireTLS=true` in STORAGE_SMTP_URL insists on it and
// `smtps://` speaks TLS from the start (nodemailer reads both from the URL).

export type Email = {
  from: string;
  to: string;
  notices: Notice[];
  /** The same for every try of the same rows, so a receiver's mail system can drop a repeat. */
  messageId: string;
  appUrl: string;
  /** The owner's signed one-click unsubscribe link (lib/notify/unsubscribe.ts). */
  unsubscribeUrl: string;
};

/** A send that takes longer is abandoned and retried: a batch's sends end well inside the sender's lease. */
const SEND_TIMEOUT_MS = 30_000;

const transports = new Map<string, Transporter>();

/** One transport per SMTP URL, kept for the process (nodemailer opens a connection per message). */
function transportFor(smtpUrl: string): Transporter {
  let t = transports.get(smtpUrl);
  if (!t) {
    t = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: SEND_TIMEOUT_MS,
      greetingTimeout: SEND_TIMEOUT_MS,
    });
    transports.set(smtpUrl, t);
  }
  return t;
}

/** A stable Message-ID for a set of outbox rows: the hash of their delivery ids. */
export function messageIdOf(deliveryIds: string[], from: string): string {
  const hash = createHash("sha256")
    .update([...deliveryIds].sort().join(","))
    .digest("hex")
    .slice(0, 32);
  return `<${hash}@${from.split("@")[1] ?? "storage.local"}>`;
}

const UNSUBSCRIBE_WORDS = "Turn off the optional notices (filling, growing file, lost at restart)";

export function emailParts(e: Pick<Email, "notices" | "appUrl" | "unsubscribeUrl">): {
  subject: string;
  text: string;
  html: string;
} {
  const [first] = e.notices;
  const subject =
    e.notices.length === 1 ? noticeSubject(first) : `Your workspaces' storage: ${e.notices.length} things to look at`;
  const footer = `${UNSUBSCRIBE_WORDS}; a full volume and a cleanup ahead are always told:`;
  const text = [...e.notices.map((n) => noticeText(n, e.appUrl)), `--\n${footer}\n${e.unsubscribeUrl}`].join("\n\n");
  const html = `<!doctype html><html><body><h2>${escapeHtml(subject)}</h2>${e.notices
    .map((n) => noticeHtml(n, e.appUrl))
    .join(
      "<hr>",
    )}<hr><p><small>${escapeHtml(footer)} <a href="${escapeHtml(e.unsubscribeUrl)}">unsubscribe</a></small></p></body></html>`;
  return { subject, text, html };
}

/** Sends `e`; throws with the SMTP server's answer when it refuses. */
export async function sendEmail(smtpUrl: string, e: Email): Promise<void> {
  const { subject, text, html } = emailParts(e);
  await transportFor(smtpUrl).sendMail({
    from: e.from,
    to: e.to,
    subject,
    text,
    html,
    messageId: e.messageId,
    // RFC 8058's one-click unsubscribe: a mail client POSTs List-Unsubscribe=One-Click to the link.
    headers: {
      "List-Unsubscribe": `<${e.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}
