// The reporter picks a proxy as curl does: the module's script downloads the reporter with curl, so both must take
// the same road. curl itself is the oracle here: for each environment and URL, a recording proxy tells whether curl
// went through it, and proxyFor must decide the same.
import { execFile, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "../env";
import { bypassesProxy, proxyFor } from "./proxy";

let proxy: http.Server;
let proxyUrl: string;
const seen: string[] = [];

beforeAll(async () => {
  // Answers every request it gets; a request that reaches it went through the proxy.
  proxy = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.end("via proxy");
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(() => proxy.close());

/**
 * Whether curl sends `url` through the proxy with `env` (only these variables, nothing of this process's). Run
 * asynchronously: the proxy answers from this process.
 */
async function curlUsesProxy(url: string, env: Env): Promise<boolean> {
  const before = seen.length;
  await new Promise<void>((resolve, reject) =>
    execFile(
      "curl",
      ["-s", "-o", "/dev/null", "--max-time", "3", url],
      { env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv },
      (err) => (err && typeof err.code !== "number" ? reject(err) : resolve()),
    ),
  );
  return seen.length > before;
}

const curlVersion = () => /curl (\d+)\.(\d+)/.exec(spawnSync("curl", ["--version"], { encoding: "utf8" }).stdout);

describe("proxyFor against curl", () => {
  // Hosts no resolver knows (.test) and loopback addresses nothing listens on: a direct attempt fails fast.
  const cases: [string, string, (p: string) => Env][] = [
    ["http, lowercase http_proxy", "http://dash.example.test/x", (p) => ({ http_proxy: p })],
    ["http, HTTP_PROXY only: curl ignores it", "http://dash.example.test/x", (p) => ({ HTTP_PROXY: p })],
    ["http, https_proxy only: not for http", "http://dash.example.test/x", (p) => ({ https_proxy: p })],
    ["http, ALL_PROXY", "http://dash.example.test/x", (p) => ({ ALL_PROXY: p })],
    [
      "no_proxy names the host",
      "http://dash.example.test/x",
      (p) => ({ http_proxy: p, no_proxy: "dash.example.test" }),
    ],
    ["no_proxy names its domain", "http://dash.example.test/x", (p) => ({ http_proxy: p, no_proxy: "example.test" })],
    [
      "no_proxy with a leading dot",
      "http://dash.example.test/x",
      (p) => ({ http_proxy: p, NO_PROXY: ".example.test" }),
    ],
    [
      "no_proxy: a suffix that is not a domain",
      "http://myexample.test/x",
      (p) => ({ http_proxy: p, no_proxy: "example.test" }),
    ],
    [
      "no_proxy in a list with spaces",
      "http://dash.example.test/x",
      (p) => ({ http_proxy: p, no_proxy: "a.test, example.test" }),
    ],
    ["no_proxy: case", "http://DASH.Example.test/x", (p) => ({ http_proxy: p, no_proxy: "example.TEST" })],
    ["no_proxy *", "http://dash.example.test/x", (p) => ({ http_proxy: p, no_proxy: "*" })],
    ["no_proxy: another host", "http://dash.example.test/x", (p) => ({ http_proxy: p, no_proxy: "other.test" })],
    ["an address in a CIDR range", "http://127.0.0.2:9/x", (p) => ({ http_proxy: p, no_proxy: "127.0.0.0/8" })],
    ["an address outside the range", "http://127.0.0.2:9/x", (p) => ({ http_proxy: p, no_proxy: "10.0.0.0/8" })],
    ["an address named exactly", "http://127.0.0.2:9/x", (p) => ({ http_proxy: p, no_proxy: "127.0.0.2" })],
    [
      "lowercase no_proxy wins over NO_PROXY",
      "http://dash.example.test/x",
      (p) => ({ http_proxy: p, no_proxy: "a.test", NO_PROXY: "example.test" }),
    ],
  ];

  it("curl is new enough to read CIDR ranges in no_proxy (7.86)", () => {
    const v = curlVersion();
    expect(v, "curl is needed as the oracle").not.toBeNull();
    expect(Number(v![1]) * 100 + Number(v![2])).toBeGreaterThanOrEqual(786);
  });

  for (const [name, url, env] of cases) {
    it(name, async () => {
      const e = env(proxyUrl);
      const viaCurl = await curlUsesProxy(url, e);
      expect(proxyFor(new URL(url), e) !== null, `curl ${viaCurl ? "used" : "skipped"} the proxy`).toBe(viaCurl);
    });
  }
});

describe("proxyFor", () => {
  it("takes a proxy without a scheme as http://, and refuses a SOCKS proxy", () => {
    expect(proxyFor(new URL("https://d.test"), { https_proxy: "proxy.corp:3128" })?.href).toBe(
      "http://proxy.corp:3128/",
    );
    expect(() => proxyFor(new URL("https://d.test"), { https_proxy: "socks5://proxy.corp:1080" })).toThrow(/socks5/);
  });

  it("reads https_proxy before HTTPS_PROXY, for https only", () => {
    const env = { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2" };
    expect(proxyFor(new URL("https://d.test"), env)?.host).toBe("lower:1");
    expect(proxyFor(new URL("https://d.test"), { HTTPS_PROXY: "http://upper:2" })?.host).toBe("upper:2");
    expect(proxyFor(new URL("http://d.test"), env)).toBeNull();
  });

  it("matches IPv6 addresses and ranges however they are written", () => {
    expect(bypassesProxy("[::1]", "0:0::1")).toBe(true);
    expect(bypassesProxy("[fd00::5]", "fd00::/8")).toBe(true);
    expect(bypassesProxy("[fe80::5]", "fd00::/8")).toBe(false);
    expect(bypassesProxy("10.1.2.3", "10.0.0.0/33")).toBe(false);
  });
});
