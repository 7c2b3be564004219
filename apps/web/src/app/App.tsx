import { lazy, Suspense, useCallback, useEffect, useState } from "react";

const Editor = lazy(() =>
  import("../features/editor/Editor.tsx").then((module) => ({ default: module.Editor })),
);
const SharedLinkPage = lazy(() =>
  import("../features/sharing/SharedLinkPage.tsx").then((module) => ({
    default: module.SharedLinkPage,
  })),
);

// A published app's page (issue 22): its own chunk, without the editor or the canvas.
const AppPage = lazy(() =>
  import("../features/apps/AppPage.tsx").then((module) => ({ default: module.AppPage })),
);

/** The current path, and a way to move on without a reload (history.replaceState). */
function usePath(): [string, (to: string) => void] {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  const replace = useCallback((to: string) => {
    window.history.replaceState(null, "", to);
    setPath(to);
  }, []);
  return [path, replace];
}

/**
 * Back from the identity provider: the session cookie is set; go on to the canvas. The
 * path changes through the parent's state, not an event: a child's effect runs before its
 * parent's, so a `popstate` sent from here would reach no listener yet.
 */
function AuthCallback({ onDone }: { onDone(): void }) {
  useEffect(() => onDone(), [onDone]);
  return <p className="centered">Signing you in…</p>;
}

/** Two routes (SPEC §2): "/" is the home page and canvas, "/auth/callback" the sign-in return. */
export function App() {
  const [path, replacePath] = usePath();
  const toCanvas = useCallback(() => replacePath("/"), [replacePath]);
  if (path === "/auth/callback") return <AuthCallback onDone={toCanvas} />;
  if (path.startsWith("/s/"))
    return (
      <Suspense fallback={<p className="centered">Opening the shared link…</p>}>
        <SharedLinkPage
          token={decodeURIComponent(path.slice(3))}
          app={(slug, token) => <AppPage slug={slug} shareToken={token} />}
        />
      </Suspense>
    );
  if (path.startsWith("/a/"))
    return (
      <Suspense fallback={<p className="centered">Loading the app…</p>}>
        <AppPage slug={path.slice(3).split("/")[0] ?? ""} />
      </Suspense>
    );
  return (
    <Suspense fallback={<p className="centered">Loading the canvas…</p>}>
      <Editor />
    </Suspense>
  );
}
