/*
 * The address bar as a tiny store, with no router library: pages read the path, workflow
 * opens and saves move it (pushState / replaceState), back and forward announce it.
 */

type Listener = () => void;

const listeners = new Set<Listener>();
const announce = () => {
  for (const listener of [...listeners]) listener();
};

/** The path shown in the address bar (no query, no hash). */
export const currentPath = (): string => window.location.pathname;

/** Calls `listener` after every change of the path: back/forward and `navigate` alike. */
export function subscribeToPath(listener: Listener): () => void {
  if (listeners.size === 0) window.addEventListener("popstate", announce);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("popstate", announce);
  };
}

/**
 * Shows `path`: a new history entry (a move the user can go back from), or in place of the
 * current one (`replace`: the same page under a new name); `keepQuery` keeps the query and
 * hash (`?debug=renders`).
 */
export function navigate(path: string, { replace = false, keepQuery = false } = {}): void {
  const { search, hash } = window.location;
  const to = keepQuery ? `${path}${search}${hash}` : path;
  if (replace) window.history.replaceState(window.history.state, "", to);
  else window.history.pushState(null, "", to);
  announce();
}

/**
 * The parameters of `path` under `pattern` ("/w/:id" matches "/w/abc" as `{ id: "abc" }`),
 * or null. A trailing slash is ignored; a parameter is one non-empty, decodable segment.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const trim = (value: string) => (value.length > 1 ? value.replace(/\/+$/, "") : value);
  const want = trim(pattern).split("/");
  const have = trim(path).split("/");
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const segment = have[index] as string;
    if (!part.startsWith(":")) {
      if (part !== segment) return null;
      continue;
    }
    if (segment === "") return null;
    try {
      params[part.slice(1)] = decodeURIComponent(segment);
    } catch {
      return null; // a malformed escape names nothing
    }
  }
  return params;
}
