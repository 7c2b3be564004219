import type { ReactFlowInstance } from "@xyflow/react";
import type { DocumentStore } from "../document/store.ts";
import type { Persistence } from "../persistence/persistence.ts";
import type { Template } from "./templates.ts";

/** Frames to wait for React Flow to hold the template's nodes before fitting (~2 s). */
const MOST_FRAMES = 120;

/**
 * Replaces the open workflow with a template, as "New workflow" does (unsaved work is asked
 * about first): a new workflow holding the template's graph, named after it, in view. It is
 * unsaved work until the user saves it.
 */
export async function openTemplate(
  template: Template,
  persistence: Persistence,
  documents: DocumentStore,
  flow: Pick<ReactFlowInstance, "getNodes" | "fitView">,
): Promise<void> {
  await persistence.replaceWith(() => {
    persistence.newWorkflow();
    const graph = template.build();
    documents.getState().load(graph);
    persistence.setName(template.title);
    const fit = (frames: number) => {
      if (flow.getNodes().length < graph.nodes.length && frames < MOST_FRAMES)
        requestAnimationFrame(() => fit(frames + 1));
      else void flow.fitView({ maxZoom: 1 });
    };
    requestAnimationFrame(() => fit(0));
  });
}
