import { api } from "../../services/api.ts";
import { authCache } from "../../services/auth-cache.ts";
import { sessionChanged } from "./store.ts";

/**
 * Signs out (an answer like "Auth session missing!" means already signed out) and leaves any
 * auth callback address for "/".
 */
export const signOut = (): Promise<void> =>
  api
    .signOut()
    .catch(() => undefined)
    .then(() => {
      authCache.reset(null);
      sessionChanged(null, false);
      window.history.replaceState(null, "", "/");
    });
