// Which proxy a request to the dashboard goes through, read from the environment the way curl reads it: the
// module's script downloads the reporter with curl, so the reporter must reach the dashboard by the same road.
//
// - http:// URLs use `http_proxy` only: curl ignores HTTP_PROXY (a CGI program gets a request's "Proxy:" header
//   as HTTP_PROXY, so the uppercase name cannot be trusted there).
// - https:// URLs use `https_proxy`, else `HTTPS_PROXY`.
// - Either falls back to `all_proxy`, else `ALL_PROXY`.
// - `no_proxy`, else `NO_PROXY`: a comma- or space-separated list. `*` alone turns the proxy off for every host.
//   A name matches itself and every name below it ("example.com" and ".example.com" both match
//   "example.com" and "git.example.com", not "myexample.com"), without regard to case. An IP address matches
//   itself, and a CIDR range ("10.0.0.0/8", "fd00::/8") every address in it, as curl does since 7.86. Ports in
//   entries are not read (curl ignores them too).
// - A proxy without a scheme is http://. http:// and https:// proxies are supported; a SOCKS proxy is not (the
//   reporter says so and goes direct).
import net from "node:net";
import type { Env } from "../env";

/** The first of the variables that is set and not empty, in curl's order. */
const firstSet = (env: Env, names: string[]) => names.map((n) => env[n]?.trim()).find((v) => v) ?? null;

/** The proxy's URL for `target`, or null to go direct. Throws on a proxy URL the reporter cannot use. */
export function proxyFor(target: URL, env: Env = process.env): URL | null {
  const scheme = target.protocol.replace(/:$/, "");
  const names = scheme === "https" ? ["https_proxy", "HTTPS_PROXY"] : scheme === "http" ? ["http_proxy"] : [];
  const proxy = firstSet(env, [...names, "all_proxy", "ALL_PROXY"]);
  if (!proxy || bypassesProxy(target.hostname, firstSet(env, ["no_proxy", "NO_PROXY"]))) return null;
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`the proxy ${url.protocol}//${url.host} is not an http:// or https:// proxy`);
  }
  return url;
}

/** True when `noProxy` names the host (see the rules above). */
export function bypassesProxy(hostname: string, noProxy: string | null): boolean {
  if (!noProxy) return false;
  const host = hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  const family = net.isIP(host);
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    if (family) {
      if (matchesAddress(host, family, entry)) return true;
      continue;
    }
    const name = entry.replace(/^\*?\./, "").replace(/\.$/, "");
    if (name && (host === name || host.endsWith(`.${name}`))) return true;
  }
  return false;
}

/** An address entry ("10.1.2.3", "::1") or a CIDR range ("10.0.0.0/8", "[fd00::]/8") against an address. */
function matchesAddress(host: string, family: number, entry: string): boolean {
  const [address, bits] = entry.replace(/[[\]]/g, "").split("/");
  if (net.isIP(address) !== family) return false;
  const max = family === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  // BlockList compares addresses, not strings: "::1" and "0:0::1" are one address.
  const list = new net.BlockList();
  list.addSubnet(address, prefix, type);
  return list.check(host, type);
}
