import { listNodeDefinitions, NODE_CATEGORIES } from "@atelier/core";
import { memo, useMemo, useState } from "react";
import { CATEGORY_LABELS, NODE_DRAG_TYPE } from "./categories.ts";
import { useDescriptions } from "./descriptions.ts";
import { matches } from "./matches.ts";

interface Props {
  onAdd(type: string): void;
}

/** The Nodes sidebar: search and categories; click adds at the centre, drag places. */
export const Palette = memo(function Palette({ onAdd }: Props) {
  const [query, setQuery] = useState("");
  const descriptions = useDescriptions();
  const definitions = useMemo(
    () =>
      listNodeDefinitions().filter((definition) =>
        matches(definition, query, descriptions[definition.type]),
      ),
    [query, descriptions],
  );
  return (
    <nav className="palette" aria-label="Nodes">
      <input
        type="search"
        placeholder="Search nodes"
        aria-label="Search the node palette"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {NODE_CATEGORIES.map((category) => {
        const items = definitions.filter((definition) => definition.category === category);
        if (items.length === 0) return null;
        return (
          <section key={category} aria-label={CATEGORY_LABELS[category]}>
            <h2>{CATEGORY_LABELS[category]}</h2>
            <ul>
              {items.map((definition) => (
                <li key={definition.type}>
                  <button
                    type="button"
                    draggable
                    title={descriptions[definition.type]}
                    onClick={() => onAdd(definition.type)}
                    onDragStart={(event) => {
                      event.dataTransfer.setData(NODE_DRAG_TYPE, definition.type);
                      event.dataTransfer.effectAllowed = "copy";
                    }}
                  >
                    {definition.displayName}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
});
