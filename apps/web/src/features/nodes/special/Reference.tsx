import { type CharacterReference, gatherInputs, referenceOf } from "@atelier/core";
import { memo } from "react";
import { useDocument } from "../../document/context.tsx";
import { BlockedNote } from "../viewers/BlockedNote.tsx";
import { mediaSrc } from "../viewers/safe-url.ts";

/** The node's reference as generators will get it (serialised so the selector compares cheaply). */
function useReference(id: string): CharacterReference | null {
  const json = useDocument((state) => {
    const node = state.nodes.find((candidate) => candidate.id === id);
    if (!node) return "null";
    return JSON.stringify(referenceOf(node, gatherInputs(state.nodes, state.edges, id).inputs));
  });
  return JSON.parse(json) as CharacterReference | null;
}

/** A character reference's card: its images and who it is, as generators receive them. */
export const ReferenceCard = memo(function ReferenceCard({ id }: { id: string }) {
  const reference = useReference(id);
  if (!reference || reference.images.length === 0)
    return <span className="muted">Connect reference images of the character</span>;
  const images = reference.images.flatMap((url) => mediaSrc(url, "image") ?? []);
  return (
    <figure className="reference-card">
      <ul className="gallery-grid kind-image" aria-label="Reference images">
        {images.map((url, index) => (
          <li key={url}>
            <img src={url} alt={`${reference.name} ${index + 1}`} loading="lazy" />
          </li>
        ))}
      </ul>
      <BlockedNote count={reference.images.length - images.length} />
      <figcaption>
        <strong>{reference.name}</strong>
        {reference.description ? ` — ${reference.description}` : null}
      </figcaption>
    </figure>
  );
});
