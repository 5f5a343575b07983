// An audit entry's details as a sentence a person reads ("viewer → admin", "3 jobs", "1.17 GiB on 4
// workspaces"), for the audit page and the CSV's details_text beside the exact JSON. No database, no React.
import { formatBytes } from "@/lib/format/bytes";
import { formatCountOf } from "@/lib/format/numbers";

type Details = Record<string, unknown> | null | undefined;

/** "bytesActed" → "bytes acted". */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();

/** Keys that hold ids: the target names the thing, and a reader has no use for a UUID. */
const isId = (key: string) => key === "id" || /Id$/.test(key);
const isBytes = (key: string) => /bytes/i.test(key);

function value(key: string, v: unknown): string | null {
  if (v === null || v === undefined || v === false || isId(key)) return null;
  if (v === true) return words(key);
  if (typeof v === "number") return isBytes(key) ? `${words(key)} ${formatBytes(v)}` : `${words(key)} ${v}`;
  if (typeof v === "string") return `${words(key)} ${v}`;
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "string" || typeof x === "number"))
      return v.length ? `${words(key)} ${v.join(", ")}` : null;
    return formatCountOf(v.length, words(key).replace(/s$/, ""), words(key));
  }
  if (typeof v === "object") {
    const inner = generic(v as Record<string, unknown>);
    return inner ? `${words(key)} (${inner})` : null;
  }
  return null;
}

function generic(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([k, v]) => value(k, v))
    .filter((s): s is string => Boolean(s))
    .join(" · ");
}

/** The few actions whose details read better in their own words than as "key value" pairs. */
const SPECIFIC: Record<string, (d: Record<string, unknown>) => string | null> = {
  "user.role_changed": (d) => `${d.from} → ${d.to}${d.reason ? ` (${d.reason})` : ""}`,
  "auth.sign_in": (d) =>
    d.method === "oidc" ? `single sign-on${d.role ? ` as ${d.role}` : ""}` : `with ${d.method ?? "a password"}`,
  "auth.sign_in_failed": (d) =>
    `reason: ${String(d.reason ?? "unknown")
      .replaceAll("_", " ")
      .toLowerCase()}`,
  "export.downloaded": (d) => {
    const query = new URLSearchParams((d.query as Record<string, string>) ?? {}).toString();
    return `${d.path ?? ""}${query ? `?${query}` : ""}`;
  },
  "settings.retention_changed": (d) =>
    Object.entries(d)
      .map(([k, v]) => `${k} ${formatCountOf(Number(v), "day")}`)
      .join(", "),
  "rules.updated": (d) =>
    ((d.changes as { id: string; enabled?: boolean; severity?: string; params?: Record<string, unknown> }[]) ?? [])
      .map((c) => {
        const parts = [
          c.enabled === undefined ? null : c.enabled ? "on" : "off",
          c.severity ?? null,
          c.params ? generic(c.params) : null,
        ].filter(Boolean);
        return `${c.id}${parts.length ? `: ${parts.join(", ")}` : ""}`;
      })
      .join("; "),
};

/** The details of an entry of `action` as readable text; empty when it has none. */
export function describeAuditDetails(action: string, details: Details): string {
  if (!details) return "";
  return SPECIFIC[action]?.(details) ?? generic(details);
}
