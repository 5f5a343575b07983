// A stand-in for a Coder deployment, for tests: Coder cannot be installed here. It answers as Coder's published
// API does, from Coder's documentation (not from this product's client). Each area of the API is a handler in a
// file of its own beside this one; the server tries them in order and answers 404 with Coder's error shape when
// none takes the request, as Coder does for an unknown route.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** Takes the request and answers it (true), or leaves it to the next handler (false). */
export type CoderHandler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
) => Promise<boolean> | boolean;

export type CoderStandIn = { url: string; close: () => Promise<void> };

/** Coder's error body: `{ message, detail }` (detail optional), with the status given. */
export function sendCoderError(res: http.ServerResponse, status: number, message: string, detail?: string) {
  sendJson(res, status, detail === undefined ? { message } : { message, detail });
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The request's body, read whole. */
export async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the stand-in on a free loopback port. */
export async function startCoderStandIn(handlers: CoderHandler[]): Promise<CoderStandIn> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    void (async () => {
      for (const handle of handlers) if (await handle(req, res, url)) return;
      sendCoderError(res, 404, "Route not found.");
    })().catch((err: unknown) => {
      if (!res.headersSent) sendCoderError(res, 500, "An internal error occurred.", String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
