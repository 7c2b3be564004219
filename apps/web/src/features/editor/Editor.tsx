import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { Toaster } from "sonner";
import { Canvas } from "../canvas/Canvas.tsx";
import { ShortcutSheet } from "../canvas/ShortcutSheet.tsx";
import { DocumentProvider, useDocumentStore } from "../document/context.tsx";
import { createDocumentStore } from "../document/store.ts";
import type { DocumentGraph } from "../document/types.ts";
import { Palette } from "../palette/Palette.tsx";
import { PreferencesPanel } from "../preferences/PreferencesPanel.tsx";
import { TopBar } from "./TopBar.tsx";

/** `?fixture=N` opens a generated N-node workflow (benchmarks, performance checks). */
async function fixtureFromUrl(): Promise<DocumentGraph | null> {
  const count = Number(new URLSearchParams(window.location.search).get("fixture"));
  if (!Number.isInteger(count) || count <= 0) return null;
  const { generateFixture } = await import("@atelier/bench/fixtures");
  return generateFixture(Math.min(count, 5000)) as unknown as DocumentGraph;
}

function Workspace() {
  const store = useDocumentStore();
  const flow = useReactFlow();
  const [panel, setPanel] = useState<"preferences" | "shortcuts" | null>(null);

  useEffect(() => {
    void fixtureFromUrl().then((graph) => {
      if (!graph) return;
      store.getState().load(graph);
      requestAnimationFrame(() => void flow.fitView());
    });
  }, [store, flow]);

  const addAtCentre = useCallback(
    (type: string) => {
      // Near the centre of the view, each new node a step further so none hides another.
      const centre = flow.screenToFlowPosition({
        x: window.innerWidth / 2,
        y: window.innerHeight / 2,
      });
      const step = (store.getState().nodes.length % 8) * 40;
      store.getState().addNode(type, { x: centre.x - 160 + step, y: centre.y - 120 + step });
    },
    [flow, store],
  );

  return (
    <div className="app-shell">
      <TopBar
        onPreferences={() => setPanel("preferences")}
        onShortcuts={() => setPanel("shortcuts")}
      />
      <div className="workspace">
        <aside className="sidebar">
          <Palette onAdd={addAtCentre} />
        </aside>
        <main className="canvas-area">
          <Canvas />
        </main>
      </div>
      {panel === "preferences" ? <PreferencesPanel onClose={() => setPanel(null)} /> : null}
      {panel === "shortcuts" ? <ShortcutSheet onClose={() => setPanel(null)} /> : null}
      <Toaster position="bottom-right" theme="dark" richColors closeButton />
    </div>
  );
}

/** The editor: one document store, the React Flow provider, the shell. */
export function Editor() {
  const store = useMemo(() => createDocumentStore(), []);
  return (
    <DocumentProvider store={store}>
      <ReactFlowProvider>
        <Workspace />
      </ReactFlowProvider>
    </DocumentProvider>
  );
}
