/*
 * The address bar as a tiny store, with no router library: pages read the path, workflow
 * opens and saves move it (pushState / replaceState), back and forward announce it.
 */

const listeners = new Set<() => void>();
const announce = () => {
  for (const listener of [...listeners]) listener();
};

/** The path shown in the address bar (no query, no hash). */
export const currentPath = (): string => window.location.pathname;

/** The path and query shown (a saved version's address differs from its workflow's by `?v=`). */
export const currentAddress = (): string => `${window.location.pathname}${window.location.search}`;

/** Calls `listener` after every change of the path: back/forward and `navigate` alike. */
export function subscribeToPath(listener: () => void): () => void {
  window.addEventListener("popstate", announce); // the same listener is added once
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Shows `to` (a path, with its query if any): a new history entry (a move the user can go
 * back from), or in place of the current one (`replace`: the same page under a new name).
 */
export function navigate(to: string, replace = false): void {
  if (replace) window.history.replaceState(window.history.state, "", to);
  else window.history.pushState(null, "", to);
  announce();
}

/**
 * The parameters of `path` under `pattern` ("/w/:id" matches "/w/abc" as `{ id: "abc" }`),
 * or null. A parameter is one non-empty, decodable segment.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const have = path.split("/");
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  try {
    for (const [index, part] of want.entries()) {
      const segment = have[index] as string;
      if (part[0] === ":" && segment) params[part.slice(1)] = decodeURIComponent(segment);
      else if (part !== segment) return null;
    }
  } catch {
    return null; // a malformed escape names nothing
  }
  return params;
}

const RETURN_KEY = "atelier.returnTo";

/** Before leaving for an identity provider: the address to come back to. */
export const rememberReturn = (): void =>
  sessionStorage.setItem(RETURN_KEY, `${window.location.pathname}${window.location.search}`);

/** Back from the provider: the address it was left from (once), else "/". */
export function takeReturn(): string {
  const to = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  // Only a path of this app (history refuses other origins anyway), never the callback again.
  return to?.startsWith("/") && !to.startsWith("//") && !to.startsWith("/auth/") ? to : "/";
}
