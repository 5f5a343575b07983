import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server on loopback (smtp-server) that reads back each message with mailparser, as a mail provider
// would receive it. `refuse` makes it answer 451 to every message (an outage the sender must outlast).

export type MailServer = {
  port: number;
  url: string;
  received: ParsedMail[];
  refuse: boolean;
  close: () => Promise<void>;
};

export async function startMailServer(user = "notify", pass = "smtp-pass"): Promise<MailServer> {
  const mail = { received: [] as ParsedMail[], refuse: false } as MailServer;
  const server = new SMTPServer({
    // No certificate here: no STARTTLS offered, so the client goes on in plain text on loopback.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) callback(null, { user });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, _session, callback) {
      if (mail.refuse) {
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          mail.received.push(parsed);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mail.port = (server.server.address() as AddressInfo).port;
  mail.url = `smtp://${user}:${pass}@127.0.0.1:${mail.port}`;
  mail.close = () => new Promise((resolve) => server.close(() => resolve()));
  return mail;
}
