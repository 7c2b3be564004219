/** An address the app has no page for. */
export function PageNotFound() {
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
