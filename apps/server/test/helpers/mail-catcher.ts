import { EventEmitter, once } from "node:events";
import { createServer as createHttpServer, type Server } from "node:http";
import { pathToFileURL } from "node:url";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message as the catcher received it over SMTP, decoded. */
export interface CaughtMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server on loopback that keeps what it is sent (tests of verification and
 * password reset mail). `next(to)` resolves with the next message to that address, by
 * event, never by polling. Run as a script, it also answers `GET /messages?to=` over HTTP
 * with the messages so far (the e2e suite's second web server).
 */
export class MailCatcher {
  readonly messages: CaughtMail[] = [];
  private readonly arrivals = new EventEmitter();
  private readonly smtp = new SMTPServer({
    // Loopback only: no TLS upgrade, no login; every recipient accepted.
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream).then(
        (parsed) => {
          const addresses = [parsed.to ?? []]
            .flat()
            .flatMap((group) => group.value.map((entry) => (entry.address ?? "").toLowerCase()));
          const mail = {
            to: addresses,
            from: parsed.from?.text ?? "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
          };
          this.messages.push(mail);
          this.arrivals.emit("mail", mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  port = 0;

  async listen(port = 0): Promise<this> {
    this.smtp.listen(port, "127.0.0.1");
    await once(this.smtp.server, "listening");
    this.port = (this.smtp.server.address() as { port: number }).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Messages to `to` so far, oldest first. */
  to(to: string): CaughtMail[] {
    return this.messages.filter((mail) => mail.to.includes(to.toLowerCase()));
  }

  /** Message number `taken` (0: the first) to `to`, as soon as it has come. */
  next(to: string, taken = 0): Promise<CaughtMail> {
    const waiting = this.to(to)[taken];
    if (waiting) return Promise.resolve(waiting);
    return new Promise((resolve) => {
      const onMail = () => {
        const arrived = this.to(to)[taken];
        if (!arrived) return;
        this.arrivals.off("mail", onMail);
        resolve(arrived);
      };
      this.arrivals.on("mail", onMail);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.smtp.close(() => resolve()));
  }
}

/** The first http(s) link in a message's text. */
export function linkIn(mail: CaughtMail): string {
  const found = /https?:\/\/\S+/.exec(mail.text);
  if (!found) throw new Error(`no link in "${mail.subject}"`);
  return found[0];
}

/** As a script: SMTP on MAIL_SMTP_PORT, the messages as JSON on MAIL_HTTP_PORT. */
async function main() {
  const catcher = await new MailCatcher().listen(Number(process.env.MAIL_SMTP_PORT));
  const http: Server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const to = url.searchParams.get("to");
    const body = url.pathname === "/messages" ? (to ? catcher.to(to) : catcher.messages) : [];
    response.writeHead(url.pathname === "/messages" ? 200 : 404, {
      "content-type": "application/json",
    });
    response.end(JSON.stringify(body));
  });
  http.listen(Number(process.env.MAIL_HTTP_PORT), "127.0.0.1");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void main();
