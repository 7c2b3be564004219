import type { MailMessage } from "./mailer.ts";

/*
 * The account messages, plain text: the link is the only thing in them that comes from a
 * request, and it is this server's own (Better Auth builds it from PUBLIC_URL).
 */

export const verificationMail = (to: string, url: string): MailMessage => ({
  to,
  subject: "Verify your email for Atelier",
  text: [
    "Someone (we hope you) created an Atelier account with this address.",
    "",
    "Open this link to verify it:",
    url,
    "",
    "If it was not you, ignore this message: nothing happens without the link.",
  ].join("\n"),
});

export const passwordResetMail = (to: string, url: string): MailMessage => ({
  to,
  subject: "Reset your Atelier password",
  text: [
    "A password reset was asked for the Atelier account of this address.",
    "",
    "Open this link within an hour to choose a new password:",
    url,
    "",
    "If you did not ask for it, ignore this message: your password stays as it is.",
  ].join("\n"),
});
