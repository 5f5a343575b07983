// The JavaScript each dashboard page sends: every route is opened in Chromium with an empty cache and every
// JavaScript response counted until the network is idle (so chunks loaded after hydration, such as the
// charts, count too). Prints plain lines: route, files, raw bytes, bytes on the wire (compressed by the
// server), and gzip -9 bytes of the same files.
//   node --import tsx scripts/bench/pages.ts            (builds if stale, seeds a small fleet, starts the app)
//   DASHBOARD_URL=http://localhost:3000 node --import tsx scripts/bench/pages.ts   (against a running app)
import { gzipSync } from "node:zlib";
import { launchChromium } from "../../tests/browser/chromium";
import { ADMIN, signInAs } from "../../tests/browser/harness";
import { startDashboard } from "../../tests/browser/server";

const STATIC_ROUTES = ["/", "/workspaces", "/findings", "/connect", "/agents/claude-code"];

async function main() {
  const server = process.env.DASHBOARD_URL ? null : await startDashboard({ workspaces: 20, days: 14 });
  const base = process.env.DASHBOARD_URL ?? server!.url;
  const browser = await launchChromium();
  try {
    // Every page needs a signed-in user: the demo admin.
    const storageState = await signInAs(browser, base, ADMIN);
    const api = await browser.newContext({ storageState });
    const list = (await (await api.request.get(`${base}/api/v1/workspaces?pageSize=1`)).json()) as {
      rows: { id: string }[];
    };
    await api.close();
    const routes = [...STATIC_ROUTES];
    if (list.rows[0]) routes.splice(2, 0, `/workspaces/${encodeURIComponent(list.rows[0].id)}`);
    console.log("route\tfiles\traw_bytes\twire_bytes\tgzip9_bytes");
    for (const route of routes) {
      const context = await browser.newContext({ storageState });
      const page = await context.newPage();
      const pending: Promise<{ raw: number; wire: number; gzip: number }>[] = [];
      page.on("response", (res) => {
        if (res.request().resourceType() !== "script") return;
        pending.push(
          (async () => {
            const body = await res.body();
            const sizes = await res.request().sizes();
            return { raw: body.length, wire: sizes.responseBodySize, gzip: gzipSync(body, { level: 9 }).length };
          })(),
        );
      });
      await page.goto(`${base}${route}`, { waitUntil: "networkidle" });
      const files = await Promise.all(pending);
      const sum = (k: "raw" | "wire" | "gzip") => files.reduce((s, f) => s + f[k], 0);
      const name = route.startsWith("/workspaces/") ? "/workspaces/[id]" : route;
      console.log(`${name}\t${files.length}\t${sum("raw")}\t${sum("wire")}\t${sum("gzip")}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server?.stop();
  }
}

await main();
