import { RESET_PASSWORD_PATH } from "@atelier/core";
import { call } from "./api.ts";

/** Password reset (SMTP_URL, or a link an admin issued): loaded with the pages that use it. */
export const accountApi = {
  /** Mails a reset link to the address when it has an account (the answer is the same either way). */
  requestPasswordReset: (email: string) =>
    call("POST", "/api/auth/request-password-reset", {
      email,
      redirectTo: `${window.location.origin}${RESET_PASSWORD_PATH}`,
    }),
  resetPassword: (token: string, newPassword: string) =>
    call("POST", "/api/auth/reset-password", { token, newPassword }),
};
