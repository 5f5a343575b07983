import { requestOrigin } from "@/lib/auth/client-ip";
import { getDb } from "@/lib/db";
import { ForbiddenError } from "@/lib/errors";
import { readQuery } from "@/lib/http/request";
import { handle, html } from "@/lib/http/response";
import { unsubscribeConfirmPage, unsubscribedPage } from "@/lib/notify/unsubscribe";
import { isOwnersLink, unsubscribeByLink } from "@/lib/services/notice-preferences";
import { unsubscribeQuery } from "@/lib/validations/notifications";

export const dynamic = "force-dynamic";

// An email's one-click unsubscribe link (docs/notifications.md): public, signed per owner. The signature is the
// credential, so neither a session nor a same-site check applies: a mail provider POSTs it from anywhere.

/** GET …/unsubscribe?owner=&sig= → a page with a button that POSTs the link; changes nothing. 403: not signed. */
export const GET = handle(async (request) => {
  const { owner, sig } = readQuery(request, unsubscribeQuery);
  if (!(await isOwnersLink(await getDb(), owner, sig))) throw new ForbiddenError("This unsubscribe link is not valid.");
  const url = new URL(request.url);
  return html(unsubscribeConfirmPage(owner, `${url.pathname}${url.search}`));
});

/** POST …/unsubscribe?owner=&sig= (RFC 8058: List-Unsubscribe=One-Click) → 200; the optional kinds off by email. */
export const POST = handle(async (request) => {
  const { owner, sig } = readQuery(request, unsubscribeQuery);
  const who = { actor: { type: "anonymous" as const, label: "unsubscribe link" }, ...requestOrigin(request.headers) };
  await unsubscribeByLink(await getDb(), owner, sig, who);
  return html(unsubscribedPage(owner));
});
