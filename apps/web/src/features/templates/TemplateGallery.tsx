import { getNodeDefinition } from "@atelier/core";
import { useReactFlow } from "@xyflow/react";
import { type KeyboardEvent, useId, useMemo } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { useDocumentStore } from "../document/context.tsx";
import type { Persistence } from "../persistence/persistence.ts";
import { openTemplate } from "./open-template.ts";
import { TEMPLATES, type Template } from "./templates.ts";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** Arrow keys (and Home / End) move between the cards; Tab still walks them too. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  const cards = [...event.currentTarget.querySelectorAll<HTMLButtonElement>("button")];
  const at = cards.indexOf(document.activeElement as HTMLButtonElement);
  let next: number | null = null;
  if (step !== undefined && at >= 0) next = (at + step + cards.length) % cards.length;
  if (event.key === "Home") next = 0;
  if (event.key === "End") next = cards.length - 1;
  if (next === null) return;
  event.preventDefault();
  cards[next]?.focus();
}

/**
 * Starter workflows as cards (issue 27). Choosing one replaces the canvas as "New workflow"
 * does — unsaved work is asked about first — with the template, named after it, in view.
 */
export function TemplateGallery({
  persistence,
  onClose,
}: {
  persistence: Persistence;
  onClose(): void;
}) {
  const documents = useDocumentStore();
  const flow = useReactFlow();
  const prefix = useId();
  const cards = useMemo(
    () =>
      TEMPLATES.map((template) => {
        const { nodes } = template.build();
        const runs = nodes.filter(
          (node) => getNodeDefinition(node.type ?? "")?.run.kind !== "none",
        ).length;
        return { template, nodes: nodes.length, runs };
      }),
    [],
  );
  const choose = (template: Template) => {
    onClose();
    void openTemplate(template, persistence, documents, flow);
  };

  return (
    <Modal label="Start from a template" onClose={onClose}>
      <h2>Start from a template</h2>
      <p className="muted">
        Each one runs as it is: press Run all. Without provider keys, the server makes placeholder
        media offline.
      </p>
      <ul className="template-gallery" aria-label="Templates" onKeyDown={moveFocus}>
        {cards.map(({ template, nodes, runs }) => {
          const id = `${prefix}-${template.id}`;
          return (
            <li key={template.id}>
              <button
                type="button"
                className="template-card"
                data-template={template.id}
                aria-labelledby={`${id}-title`}
                aria-describedby={`${id}-about ${id}-count`}
                onClick={() => choose(template)}
              >
                <strong id={`${id}-title`}>{template.title}</strong>
                <span id={`${id}-about`}>{template.description}</span>
                <small id={`${id}-count`} className="muted">
                  {plural(nodes, "node")} · {plural(runs, "step")} to run
                </small>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}
