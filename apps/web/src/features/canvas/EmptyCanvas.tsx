import { useState } from "react";
import { lazyPart } from "../../ui/lazy-part.tsx";
import type { Persistence } from "../persistence/persistence.ts";

const TemplateGallery = lazyPart(() =>
  import("../templates/TemplateGallery.tsx").then((module) => module.TemplateGallery),
);

/** What an empty canvas offers: how to add a node, and the starter templates. */
export function EmptyCanvas({ persistence }: { persistence: Persistence }) {
  const [templates, setTemplates] = useState(false);
  return (
    <>
      <div className="empty-canvas">
        <p>Double-click anywhere to add a node</p>
        <p className="muted">or pick one from the Nodes panel · press ? for shortcuts</p>
        <button type="button" onClick={() => setTemplates(true)}>
          Start from a template
        </button>
      </div>
      {templates ? (
        <TemplateGallery persistence={persistence} onClose={() => setTemplates(false)} />
      ) : null}
    </>
  );
}
