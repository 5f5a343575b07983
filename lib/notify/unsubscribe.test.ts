import { describe, expect, it } from "vitest";
import { isUnsubscribeSignature, unsubscribeConfirmPage, unsubscribeLink, unsubscribeSignature } from "./unsubscribe";

describe("the unsubscribe link", () => {
  it("is signed per owner with the secret: another owner, another secret or a changed signature fail", () => {
    const sig = unsubscribeSignature("s3cret", "alice");
    expect(isUnsubscribeSignature("s3cret", "alice", sig)).toBe(true);
    expect(isUnsubscribeSignature("s3cret", "bob", sig)).toBe(false);
    expect(isUnsubscribeSignature("other", "alice", sig)).toBe(false);
    expect(isUnsubscribeSignature("s3cret", "alice", `${sig.slice(0, -1)}A`)).toBe(sig.endsWith("A"));
    expect(isUnsubscribeSignature("s3cret", "alice", "short")).toBe(false);
  });

  it("points at the dashboard's unsubscribe endpoint with the owner and the signature", () => {
    const url = new URL(unsubscribeLink("https://s.example.com/", "s3cret", "al ice"));
    expect(url.pathname).toBe("/api/v1/notifications/unsubscribe");
    expect(url.searchParams.get("owner")).toBe("al ice");
    expect(url.searchParams.get("sig")).toBe(unsubscribeSignature("s3cret", "al ice"));
  });

  it("opens on a page whose button POSTs the link, the owner's name escaped", () => {
    const page = unsubscribeConfirmPage("<b>x</b>", "/api/v1/notifications/unsubscribe?owner=a&sig=b");
    expect(page).toContain('<form method="post" action="/api/v1/notifications/unsubscribe?owner=a&amp;sig=b">');
    expect(page).toContain('name="List-Unsubscribe" value="One-Click"');
    expect(page).not.toContain("<b>x</b>");
  });
});
