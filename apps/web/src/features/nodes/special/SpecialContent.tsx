import { lazy, memo, Suspense } from "react";
import { useDocument } from "../../document/context.tsx";
import type { CanvasNodeData } from "../../document/types.ts";
import type { AutomationData } from "../../runs/automation.ts";
import { gatherInputs } from "../../runs/gather-inputs.ts";
import { AutomationPanel } from "./Automation.tsx";
import { Gallery } from "./Gallery.tsx";
import { ReferenceCard } from "./Reference.tsx";

const Markdown = lazy(() => import("./Markdown.tsx"));
// three.js only loads when a scene composer is on the canvas.
const SceneComposer = lazy(() => import("./scene/SceneComposer.tsx"));
const ProcessingPreview = lazy(() => import("./processing/ProcessingPreview.tsx"));
/** Processing nodes with a live preview in the browser (the server runs the same operation). */
const PREVIEWED = new Set(["crop", "resize", "levels", "reframe"]);

/** Types whose special content is their result, so the generic output section is left out. */
const OWN_RESULT = new Set([
  "container",
  "video-container",
  "3d-container",
  "audio-container",
  "image-automation",
  "notepad",
  "annotation",
  "markdown-viewer",
  "character-reference",
]);
export const showsOwnResult = (type: string) => OWN_RESULT.has(type);

const ARROWS: Record<string, string> = { left: "←", right: "→", up: "↑", down: "↓" };

/** The text wired into the node's `text` input, or null. */
function useIncomingText(id: string): string | null {
  return useDocument((state) => {
    const text = gatherInputs(state.nodes, state.edges, id).inputs.text;
    return typeof text === "string" ? text : null;
  });
}

const own = (data: CanvasNodeData, name: string) => {
  const value = data.inputValues?.[name]?.value;
  return typeof value === "string" ? value : "";
};

function MarkdownView({ text, empty }: { text: string; empty: string }) {
  if (!text.trim()) return <span className="muted">{empty}</span>;
  return (
    <Suspense fallback={<p className="muted">{text.slice(0, 200)}</p>}>
      <Markdown text={text} />
    </Suspense>
  );
}

function MarkdownViewerContent({ id, data }: { id: string; data: CanvasNodeData }) {
  const incoming = useIncomingText(id);
  return <MarkdownView text={incoming ?? own(data, "text")} empty="Nothing to show yet" />;
}

/**
 * What notes, annotations and the markdown viewer show besides their fields: formatted
 * text, never raw HTML.
 */
export const SpecialContent = memo(function SpecialContent({
  id,
  type,
  data,
}: {
  id: string;
  type: string;
  data: CanvasNodeData;
}) {
  if (type.endsWith("container"))
    return (
      <section className="node-special" aria-label="Collected media">
        <Gallery id={id} type={type} items={data.outputs?.items} />
      </section>
    );
  if (type === "character-reference")
    return (
      <section className="node-special" aria-label="Character">
        <ReferenceCard id={id} />
      </section>
    );
  if (type === "image-automation")
    return (
      <section className="node-special" aria-label="Automation">
        <AutomationPanel id={id} automation={data.automation as AutomationData | undefined} />
      </section>
    );
  if (type === "scene-composer")
    return (
      <section className="node-special nodrag nowheel" aria-label="Scene">
        <Suspense fallback={<p className="muted">Loading the 3D scene…</p>}>
          <SceneComposer id={id} data={data} />
        </Suspense>
      </section>
    );
  if (PREVIEWED.has(type))
    return (
      <section className="node-special nodrag" aria-label="Preview">
        <Suspense fallback={null}>
          <ProcessingPreview id={id} type={type} data={data} />
        </Suspense>
      </section>
    );
  if (type === "notepad")
    return (
      <section className="node-special" aria-label="Notes">
        <MarkdownView text={own(data, "text")} empty="Write notes above (markdown works)" />
      </section>
    );
  if (type === "markdown-viewer")
    return (
      <section className="node-special" aria-label="Rendered markdown">
        <MarkdownViewerContent id={id} data={data} />
      </section>
    );
  if (type === "annotation") {
    const arrow = ARROWS[own(data, "arrow")] ?? "";
    return (
      <section className="node-special annotation-label" aria-label="Annotation">
        {arrow && own(data, "arrow") !== "right" ? <span aria-hidden="true">{arrow} </span> : null}
        {own(data, "text") || <span className="muted">Label</span>}
        {own(data, "arrow") === "right" ? <span aria-hidden="true"> {arrow}</span> : null}
      </section>
    );
  }
  return null;
});
