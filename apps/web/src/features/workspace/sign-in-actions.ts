import { accountApi } from "../../services/account-api.ts";
import { rememberReturn } from "../../services/address-bar.ts";
import { ApiError, api } from "../../services/api.ts";
import { authCache } from "../../services/auth-cache.ts";
import { sessionChanged } from "./store.ts";

/*
 * Signing in, for the sign-in dialog (loaded with it). Signing out is in
 * `session-actions.ts`, which the top bar loads with the editor.
 */

/** What the user reads when a sign-in step fails: the server's message, or that it is unreachable. */
export const sessionFailureMessage = (failure: unknown): string =>
  failure instanceof ApiError ? failure.message : "Could not reach the server";

/**
 * The social sign-in providers the server offers and whether it mails password resets (none
 * and no when it cannot say).
 */
export const signInOptions = (): Promise<{
  providers: { id: string; name: string }[];
  passwordReset: boolean;
}> =>
  api
    .providers()
    .then((answer) => ({
      providers: answer.providers,
      passwordReset: answer.passwordReset === true,
    }))
    .catch(() => ({ providers: [], passwordReset: false }));

/** Asks for a reset link by mail. */
export const requestPasswordReset = async (email: string): Promise<void> => {
  await accountApi.requestPasswordReset(email);
};

/** Sets a new password with a reset link's token. */
export const resetPassword = async (token: string, password: string): Promise<void> => {
  await accountApi.resetPassword(token, password);
};

/** Where the browser goes to sign in with a provider; it comes back to the current address. */
export const providerSignInUrl = async (provider: string): Promise<string> => {
  const { url } = await api.signInWith(provider);
  rememberReturn();
  return url;
};

/**
 * Signs in with email and password; with a name, creates the account first. The server's
 * sign-up does not sign in (its answer must not tell who has an account): a new account
 * signs in next, with the same details.
 */
export async function signIn(email: string, password: string, newAccountName?: string) {
  if (newAccountName !== undefined) await api.signUp(email, password, newAccountName);
  const { user } = await api.signIn(email, password);
  authCache.reset(user);
  sessionChanged(user, await authCache.isAdmin());
}
