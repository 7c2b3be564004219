import { type ApiToken, validateApiTokenName } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { libraryApi } from "../../services/library-api.ts";

export type { ApiToken };

/** The server's message for a failed token request, else the fallback. */
export const tokenFailureMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** Personal API tokens of the signed-in account (the API tokens dialog). */
export const tokenActions = {
  list: async (): Promise<ApiToken[]> => (await libraryApi.listTokens()).tokens,
  /** The new token's text, shown once; a bad name is refused before asking the server. */
  create: async (name: string): Promise<{ id: string; token: string }> => {
    const problem = validateApiTokenName(name);
    if (problem) throw new ApiError(400, problem);
    return libraryApi.createToken(name.trim());
  },
  revoke: (id: string) => libraryApi.revokeToken(id).then(() => undefined),
  /** Puts the token on the clipboard; false when the browser refuses. */
  copy: (text: string): Promise<boolean> =>
    navigator.clipboard
      ? navigator.clipboard.writeText(text).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false),
};
