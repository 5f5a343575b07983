/** The URL this dashboard is reached at, from the request's forwarding and host headers. */
export function dashboardUrlFrom(headers: { get(name: string): string | null }): string {
  const first = (v: string | null) => v?.split(",")[0]?.trim() || null;
  const host = first(headers.get("x-forwarded-host")) ?? first(headers.get("host")) ?? "localhost:3000";
  const proto = first(headers.get("x-forwarded-proto")) ?? (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
