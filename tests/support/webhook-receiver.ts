import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on loopback, as a chat or an integration would run one: it checks each request's signature
// against the raw body and keeps what arrived. `answer` sets the status it replies with (an outage: 503).

export type Received = {
  deliveryId: string;
  body: Record<string, unknown>;
  /** The signature header matched an HMAC-SHA256 of the raw body under the secret. */
  signed: boolean;
};

export type WebhookReceiver = {
  url: string;
  received: Received[];
  answer: number;
  /** Called as each request arrives, before the answer. */
  onRequest?: (r: Received) => void;
  close: () => Promise<void>;
};

export async function startWebhookReceiver(secret: string | null): Promise<WebhookReceiver> {
  const receiver = { received: [] as Received[], answer: 200 } as WebhookReceiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const expected = secret ? Buffer.from(`sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`) : null;
      const given = Buffer.from(String(req.headers["x-storage-signature"] ?? ""));
      const r: Received = {
        deliveryId: String(req.headers["x-storage-delivery-id"]),
        body: JSON.parse(raw.toString("utf8")) as Record<string, unknown>,
        signed: expected !== null && given.length === expected.length && timingSafeEqual(given, expected),
      };
      receiver.received.push(r);
      receiver.onRequest?.(r);
      res.writeHead(receiver.answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/storage`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
