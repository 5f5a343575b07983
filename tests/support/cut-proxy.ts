// A TCP proxy between the app and PostgreSQL that can cut one connection at the worst moment: after the server
// has received a statement (a single statement, or the COMMIT of a transaction: then it is committed) and before
// its answer reaches the app.
import net from "node:net";
import { freePort } from "@/scripts/lib/next-server";

export type CutProxy = {
  port: number;
  /**
   * The next connection that sends a message containing `marker` is cut when the server answers it, or, with
   * `then`, when the server answers that connection's next message containing `then` (the transaction's commit).
   */
  arm: (marker: string, then?: string) => void;
  cuts: () => number;
  close: () => Promise<void>;
};

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  let armed: { marker: Buffer; then: Buffer | null } | null = null;
  let cuts = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cutOnAnswer = false;
    let waitFor: Buffer | null = null;
    client.on("data", (d) => {
      if (armed && d.includes(armed.marker)) [waitFor, armed] = [armed.then, null];
      else if (!waitFor) return void upstream.write(d);
      if (!waitFor || d.includes(waitFor)) [waitFor, cutOnAnswer] = [null, true];
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
    arm: (marker, then) => void (armed = { marker: Buffer.from(marker), then: then ? Buffer.from(then) : null }),
    cuts: () => cuts,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
