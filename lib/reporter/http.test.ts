import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
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
      "subjectAltName=IP:127.0.0.1",
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
