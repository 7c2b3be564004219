import { authCache, client } from "../../services/auth-cache.ts";
import { sessionChanged } from "./store.ts";

/**
 * Signs out (an answer like "Auth session missing!" means already signed out). The address
 * stays: it names the workflow still on the canvas (url-sync.ts).
 */
export const signOut = (): Promise<void> =>
  client()
    .then((api) => api.signOut())
    .catch(() => undefined)
    .then(() => {
      authCache.reset(null);
      sessionChanged(null, false);
    });
