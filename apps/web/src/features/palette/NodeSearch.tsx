import { listNodeDefinitions, type NodeDefinition } from "@atelier/core";
import { useEffect, useMemo, useRef, useState } from "react";
import { usePopupPlacement } from "../../ui/place-popup.ts";
import { CATEGORY_LABELS } from "./categories.ts";
import { useDescriptions } from "./descriptions.ts";
import { matches } from "./matches.ts";

interface Props {
  /** Screen position it opens at (it flips or moves to stay inside the window). */
  at: { x: number; y: number };
  /** Limit the list (a dropped wire offers only compatible types). */
  only?: NodeDefinition[];
  onPick(definition: NodeDefinition): void;
  onClose(): void;
}

/** A search box for node types: type to filter, arrows to move, Enter to add, Escape to close. */
export function NodeSearch({ at, only, onPick, onClose }: Props) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const placement = usePopupPlacement<HTMLDivElement>(at);
  const descriptions = useDescriptions();
  const results = useMemo(
    () =>
      (only ?? listNodeDefinitions())
        .filter((definition) => matches(definition, query, descriptions[definition.type]))
        .slice(0, 40),
    [only, query, descriptions],
  );
  useEffect(() => input.current?.focus(), []);

  return (
    <div
      ref={placement.ref}
      className="node-search"
      style={placement.style}
      role="dialog"
      aria-label="Add a node"
    >
      <input
        ref={input}
        value={query}
        placeholder={only ? "Compatible nodes…" : "Search nodes…"}
        aria-label="Search nodes"
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === "Escape") onClose();
          if (event.key === "ArrowDown")
            setActive((index) => Math.min(index + 1, results.length - 1));
          if (event.key === "ArrowUp") setActive((index) => Math.max(index - 1, 0));
          if (event.key === "Enter" && results[active]) onPick(results[active]);
        }}
        onBlur={(event) => {
          if (!event.currentTarget.parentElement?.contains(event.relatedTarget as Node | null))
            onClose();
        }}
      />
      <ul aria-label="Node types">
        {results.map((definition, index) => (
          <li key={definition.type} className={index === active ? "active" : undefined}>
            <button
              type="button"
              tabIndex={-1}
              aria-current={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(definition)}
            >
              <span>{definition.displayName}</span>
              <small>{CATEGORY_LABELS[definition.category]}</small>
            </button>
          </li>
        ))}
        {results.length === 0 ? <li className="muted">No node matches “{query}”</li> : null}
      </ul>
    </div>
  );
}
