import { lazy, Suspense, useEffect, useState } from "react";

const Editor = lazy(() =>
  import("../features/editor/Editor.tsx").then((module) => ({ default: module.Editor })),
);

function usePath(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    window.addEventListener("popstate", update);
    return () => window.removeEventListener("popstate", update);
  }, []);
  return path;
}

/** Back from the identity provider: the session cookie is set; go on to the canvas. */
function AuthCallback() {
  useEffect(() => {
    window.history.replaceState(null, "", "/");
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, []);
  return <p className="centered">Signing you in…</p>;
}

/** Two routes (SPEC §2): "/" is the home page and canvas, "/auth/callback" the sign-in return. */
export function App() {
  const path = usePath();
  if (path === "/auth/callback") return <AuthCallback />;
  return (
    <Suspense fallback={<p className="centered">Loading the canvas…</p>}>
      <Editor />
    </Suspense>
  );
}
