import { useEffect } from "react";

/** An address the app has no page for. */
export function PageNotFound() {
  useEffect(() => {
    document.title = "Page not found — Atelier";
  }, []);
  return (
    <main className="not-found">
      <h1>Page not found</h1>
      <p className="muted">Nothing lives at this address.</p>
      <p className="not-found-links">
        <a href="/">Go to the canvas</a>
      </p>
    </main>
  );
}
