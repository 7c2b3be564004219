import type { APIRequestContext } from "@playwright/test";

/*
 * The e2e suite's mail: a real SMTP server on loopback (the server suite's MailCatcher, run
 * as the config's first web server) catches what the app sends; its messages are JSON.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
export const MAIL_SMTP_PORT = port + 20;
export const MAIL_HTTP_PORT = port + 21;
/** The address ADMIN_EMAILS names: it becomes an admin once verified (account-mail.spec). */
export const E2E_ADMIN_EMAIL = "e2e-admin@example.com";

export interface CaughtMail {
  to: string[];
  subject: string;
  text: string;
}

/** Messages caught so far for `to`, oldest first. */
export async function mailTo(request: APIRequestContext, to: string): Promise<CaughtMail[]> {
  const answer = await request.get(
    `http://127.0.0.1:${MAIL_HTTP_PORT}/messages?to=${encodeURIComponent(to)}`,
  );
  return (await answer.json()) as CaughtMail[];
}

/** The first link in a message. */
export function linkIn(mail: CaughtMail): string {
  const found = /https?:\/\/\S+/.exec(mail.text);
  if (!found) throw new Error(`no link in "${mail.subject}"`);
  return found[0];
}
