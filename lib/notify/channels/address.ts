import "server-only";
import { lookup } from "node:dns/promises";
import net from "node:net";
import os from "node:os";

// Where a webhook may be sent: checked at every send, after resolving, and the request then connects to the
// address checked (not to a second lookup, which a DNS rebinding could answer differently). Loopback, link-local,
// private and the app's own addresses are refused unless STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE=1: a webhook URL
// must not reach what only the app can reach (a cloud's metadata service, the database, the app itself).

export type Resolved = { address: string; family: 4 | 6 };

const REFUSED = new net.BlockList();
for (const [net4, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const)
  REFUSED.addSubnet(net4, bits, "ipv4");
for (const [net6, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const)
  REFUSED.addSubnet(net6, bits, "ipv6");

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as the IPv4 address it is. */
function plain(r: Resolved): Resolved {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(r.address);
  return mapped ? { address: mapped[1], family: 4 } : r;
}

function ownAddresses(): Set<string> {
  return new Set(
    Object.values(os.networkInterfaces())
      .flat()
      .map((i) => i?.address)
      .filter((a): a is string => Boolean(a)),
  );
}

/** Why `r` may not be sent to, or null when it may. */
export function refusal(r: Resolved): string | null {
  const p = plain(r);
  if (REFUSED.check(p.address, p.family === 4 ? "ipv4" : "ipv6"))
    return `${p.address} is a loopback, link-local or private address`;
  if (ownAddresses().has(p.address)) return `${p.address} is this app's own address`;
  return null;
}

/** Resolves `hostname` and returns the address to connect to; throws when any of its addresses is refused. */
export async function checkedAddress(hostname: string, allowPrivate: boolean): Promise<Resolved> {
  const bare = hostname.replace(/^\[|\]$/g, "");
  const family = net.isIP(bare);
  const all: Resolved[] = family
    ? [{ address: bare, family: family as 4 | 6 }]
    : (await lookup(bare, { all: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (all.length === 0) throw new Error(`${hostname} resolves to no address`);
  if (!allowPrivate) {
    // Every address, not only the first: a name that also resolves inward is refused whole.
    const why = all.map(refusal).find(Boolean);
    if (why) throw new Error(`refused: ${hostname}: ${why} (STORAGE_NOTIFY_WEBHOOK_ALLOW_PRIVATE=1 allows it)`);
  }
  return all[0];
}
