// A TCP proxy between the app and PostgreSQL that can cut one connection at the worst moment: after the server
// has received a statement (and, for a single statement, committed it) and before its answer reaches the app.
import net from "node:net";
import { freePort } from "@/scripts/lib/next-server";

export type CutProxy = {
  port: number;
  /** The next connection that sends a message containing `marker` is cut when the server answers it. */
  arm: (marker: string) => void;
  cuts: () => number;
  close: () => Promise<void>;
};

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  let armed: Buffer | null = null;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cutOnAnswer = false;
    client.on("data", (d) => {
      if (armed && d.includes(armed)) [armed, cutOnAnswer] = [null, true];
      upstream.write(d);
    });
    upstream.on("data", (d) => {
      if (!cutOnAnswer) return void client.write(d);
      cuts++;
      client.destroy();
      upstream.destroy();
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      a.on("error", () => b.destroy());
      a.on("close", () => {
        b.destroy();
        sockets.delete(a);
      });
    }
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    port,
    arm: (marker) => void (armed = Buffer.from(marker)),
    cuts: () => cuts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
