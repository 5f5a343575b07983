import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTRA_CA_ENV, NetworkError, request } from "./http";

let tmp: string;
let server: https.Server;
let url: string;

beforeAll(async () => {
  // a dashboard behind a private CA: a certificate no default root vouches for
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reporter-http-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:dashboard.test",
      "-keyout",
      path.join(tmp, "key.pem"),
      "-out",
      path.join(tmp, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  server = https.createServer(
    { key: fs.readFileSync(path.join(tmp, "key.pem")), cert: fs.readFileSync(path.join(tmp, "cert.pem")) },
    (_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true}'),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ping`;
});

afterAll(() => {
  server.close();
  proxy?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  delete process.env[EXTRA_CA_ENV];
});

describe("HTTPS to a dashboard behind a private CA", () => {
  it("is refused without the CA, and trusted with the file the module's script hands over", async () => {
    delete process.env[EXTRA_CA_ENV];
    await expect(request(url, { method: "GET" })).rejects.toThrow(NetworkError);
    process.env[EXTRA_CA_ENV] = path.join(tmp, "cert.pem");
    await expect(request(url, { method: "GET" })).resolves.toMatchObject({ status: 200, body: { ok: true } });
  });

  it("warns and keeps Node's default roots when the file cannot be read", async () => {
    process.env[EXTRA_CA_ENV] = path.join(tmp, "missing.pem");
    await expect(request(url, { method: "GET" })).rejects.toThrow(NetworkError);
  });
});

// A corporate proxy, the only one that knows the dashboard's name (dashboard.test resolves nowhere else): CONNECT
// tunnels for https, absolute URIs for http.
let proxy: http.Server;
const tunnels: string[] = [];
const forwarded: string[] = [];
const resolveName = (host: string) => (host === "dashboard.test" ? "127.0.0.1" : host);

describe("through the workspace's proxy", () => {
  let proxyUrl: string;
  let plain: http.Server;
  let plainPort: number;
  const saved = { ...process.env };

  beforeAll(async () => {
    proxy = http.createServer((req, res) => {
      const target = new URL(req.url!);
      forwarded.push(req.url!);
      const upstream = http.request(
        {
          host: resolveName(target.hostname),
          port: target.port,
          path: target.pathname,
          method: req.method,
          headers: req.headers,
        },
        (r) => r.pipe(res.writeHead(r.statusCode!, r.headers)),
      );
      req.pipe(upstream);
    });
    proxy.on("connect", (req, socket: net.Socket) => {
      tunnels.push(req.url!);
      const [host, port] = req.url!.split(":");
      const upstream = net.connect(Number(port), resolveName(host), () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    plain = http.createServer((_req, res) =>
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"plain":true}'),
    );
    await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
    plainPort = (plain.address() as AddressInfo).port;
  });

  afterAll(() => {
    plain.close();
    process.env = saved;
  });

  const httpsUrl = () => url.replace("127.0.0.1", "dashboard.test");
  const use = (env: Record<string, string>) => {
    for (const k of [
      "http_proxy",
      "https_proxy",
      "HTTPS_PROXY",
      "HTTP_PROXY",
      "no_proxy",
      "NO_PROXY",
      "all_proxy",
      "ALL_PROXY",
    ])
      delete process.env[k];
    Object.assign(process.env, env);
  };

  it("tunnels https with CONNECT, and checks the dashboard's certificate against the extra CA", async () => {
    process.env[EXTRA_CA_ENV] = path.join(tmp, "cert.pem");
    use({ HTTPS_PROXY: proxyUrl });
    await expect(request(httpsUrl(), { method: "GET" })).resolves.toMatchObject({ status: 200, body: { ok: true } });
    expect(tunnels.at(-1)).toBe(`dashboard.test:${new URL(url).port}`);
    delete process.env[EXTRA_CA_ENV];
    await expect(request(httpsUrl(), { method: "GET" })).rejects.toThrow(NetworkError);
  });

  it("sends http as an absolute URI through http_proxy", async () => {
    use({ http_proxy: proxyUrl });
    const target = `http://dashboard.test:${plainPort}/api/v1/health`;
    await expect(request(target, { method: "GET" })).resolves.toMatchObject({ status: 200, body: { plain: true } });
    expect(forwarded.at(-1)).toBe(target);
  });

  it("goes direct where curl would: HTTP_PROXY for http, and hosts in no_proxy (the name then fails to resolve)", async () => {
    const target = `http://dashboard.test:${plainPort}/api/v1/health`;
    use({ HTTP_PROXY: proxyUrl });
    await expect(request(target, { method: "GET" })).rejects.toThrow(/dashboard\.test.*(ENOTFOUND|EAI_AGAIN)/);
    use({ https_proxy: proxyUrl, no_proxy: ".test" });
    await expect(request(httpsUrl(), { method: "GET" })).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
  });

  it("names the proxy when it cannot be reached", async () => {
    use({ https_proxy: "http://127.0.0.1:9" });
    await expect(request(httpsUrl(), { method: "GET" })).rejects.toThrow(
      /\(through the proxy 127\.0\.0\.1:9\): ECONNREFUSED/,
    );
  });
});
