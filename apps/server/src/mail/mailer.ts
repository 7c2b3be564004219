import { createTransport } from "nodemailer";
import type { Config } from "../env.ts";

/** A message this server sends: plain text only (nothing from users is rendered as HTML). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Mail through SMTP_URL (nodemailer), or null when none is configured. */
export function createMailer(mail: Config["mail"]): Mailer | null {
  if (!mail) return null;
  const transport = createTransport(mail.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: mail.from, ...message });
    },
    close: () => transport.close(),
  };
}
