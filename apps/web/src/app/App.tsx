import { listNodeDefinitions, NODE_CATEGORIES } from "@atelier/core";

const CATEGORY_LABELS: Record<(typeof NODE_CATEGORIES)[number], string> = {
  text: "Text",
  image: "Image",
  video: "Video",
  "3d": "3D",
  audio: "Audio",
  processing: "Processing",
  containers: "Containers & notes",
};

/**
 * The shell until the canvas lands (issue "Canvas editor"): the node catalogue by family,
 * read from @atelier/core so the wiring between packages is exercised.
 */
export function App() {
  const definitions = listNodeDefinitions();
  return (
    <main
      style={{
        fontFamily: "system-ui, sans-serif",
        padding: 24,
        background: "#16161a",
        color: "#e6e6e6",
        minHeight: "100vh",
      }}
    >
      <h1>Atelier</h1>
      <p>{definitions.length} node types available.</p>
      {NODE_CATEGORIES.map((category) => (
        <section key={category} aria-label={CATEGORY_LABELS[category]}>
          <h2>{CATEGORY_LABELS[category]}</h2>
          <ul>
            {definitions
              .filter((definition) => definition.category === category)
              .map((definition) => (
                <li key={definition.type}>{definition.displayName}</li>
              ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
