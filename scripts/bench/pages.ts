// The JavaScript each dashboard page sends: parses the <script src> of each route's HTML on a running
// `next start`, fetches every chunk, gzips it, and prints plain lines: route, files, raw bytes, gzip bytes.
//   node --import tsx scripts/bench/pages.ts            (builds if stale, seeds a small fleet, starts the app)
//   DASHBOARD_URL=http://localhost:3000 node --import tsx scripts/bench/pages.ts   (against a running app)
import { gzipSync } from "node:zlib";
import { startDashboard } from "../../tests/browser/server";

const STATIC_ROUTES = ["/", "/workspaces", "/findings", "/connect", "/agents/claude-code"];

export function scriptSources(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) out.add(m[1].replace(/&amp;/g, "&"));
  return [...out];
}

async function text(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.text();
}

async function main() {
  const server = process.env.DASHBOARD_URL ? null : await startDashboard({ workspaces: 20, days: 14 });
  const base = process.env.DASHBOARD_URL ?? server!.url;
  try {
    const list = JSON.parse(await text(`${base}/api/v1/workspaces?pageSize=1`)) as { rows: { id: string }[] };
    const routes = [...STATIC_ROUTES];
    if (list.rows[0]) routes.splice(2, 0, `/workspaces/${encodeURIComponent(list.rows[0].id)}`);
    const cache = new Map<string, { raw: number; gzip: number }>();
    console.log("route\tfiles\traw_bytes\tgzip_bytes");
    for (const route of routes) {
      const sources = scriptSources(await text(`${base}${route}`));
      let raw = 0;
      let gzip = 0;
      for (const src of sources) {
        const url = new URL(src, base).toString();
        let size = cache.get(url);
        if (!size) {
          const body = Buffer.from(await (await fetch(url)).arrayBuffer());
          size = { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
          cache.set(url, size);
        }
        raw += size.raw;
        gzip += size.gzip;
      }
      const name = route.startsWith("/workspaces/") ? "/workspaces/[id]" : route;
      console.log(`${name}\t${sources.length}\t${raw}\t${gzip}`);
    }
  } finally {
    await server?.stop();
  }
}

await main();
