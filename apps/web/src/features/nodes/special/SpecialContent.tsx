import { lazy, memo, type ReactNode, Suspense } from "react";
import type { CanvasNodeData } from "../../document/types.ts";
import type { AutomationData } from "../../runs/automation.ts";
import { MarkdownView } from "./MarkdownView.tsx";
import { PREVIEWED } from "./special-types.ts";

// Each kind of special content loads when such a node is first drawn (DESIGN §7).
const AutomationPanel = lazy(() =>
  import("./Automation.tsx").then((module) => ({ default: module.AutomationPanel })),
);
const Gallery = lazy(() => import("./Gallery.tsx").then((module) => ({ default: module.Gallery })));
const ReferenceCard = lazy(() =>
  import("./Reference.tsx").then((module) => ({ default: module.ReferenceCard })),
);
const MarkdownViewer = lazy(() =>
  import("./MarkdownViewer.tsx").then((module) => ({ default: module.MarkdownViewer })),
);
// three.js only loads when a scene composer is on the canvas.
const SceneComposer = lazy(() => import("./scene/SceneComposer.tsx"));
const ProcessingPreview = lazy(() => import("./processing/ProcessingPreview.tsx"));

const ARROWS: Record<string, string> = { left: "←", right: "→", up: "↑", down: "↓" };

const own = (data: CanvasNodeData, name: string) => {
  const value = data.inputValues?.[name]?.value;
  return typeof value === "string" ? value : "";
};

/** A node's special section; lazily loaded content shows "Loading…" for its first frame. */
function Section({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section className={`node-special ${className}`.trim()} aria-label={label}>
      <Suspense fallback={<span className="muted">Loading…</span>}>{children}</Suspense>
    </section>
  );
}

/**
 * What special nodes show besides their fields: galleries, references, automation runs,
 * the 3D scene, processing previews, and formatted text (never raw HTML).
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
      <Section label="Collected media">
        <Gallery id={id} type={type} items={data.outputs?.items} />
      </Section>
    );
  if (type === "character-reference")
    return (
      <Section label="Character">
        <ReferenceCard id={id} />
      </Section>
    );
  if (type === "image-automation")
    return (
      <Section label="Automation">
        <AutomationPanel id={id} automation={data.automation as AutomationData | undefined} />
      </Section>
    );
  if (type === "scene-composer")
    return (
      <Section label="Scene" className="nodrag nowheel">
        <SceneComposer id={id} data={data} />
      </Section>
    );
  if (PREVIEWED.has(type))
    return (
      <Section label="Preview" className="nodrag">
        <ProcessingPreview id={id} type={type} data={data} />
      </Section>
    );
  if (type === "notepad")
    return (
      <Section label="Notes">
        <MarkdownView text={own(data, "text")} empty="Write notes above (markdown works)" />
      </Section>
    );
  if (type === "markdown-viewer")
    return (
      <Section label="Rendered markdown">
        <MarkdownViewer id={id} data={data} />
      </Section>
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
