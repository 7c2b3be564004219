import { lazy, Suspense } from "react";

const Markdown = lazy(() => import("./Markdown.tsx"));

/** Formatted text (markdown, never raw HTML), or `empty` when there is none. */
export function MarkdownView({ text, empty }: { text: string; empty: string }) {
  if (!text.trim()) return <span className="muted">{empty}</span>;
  return (
    <Suspense fallback={<p className="muted">{text.slice(0, 200)}</p>}>
      <Markdown text={text} />
    </Suspense>
  );
}
