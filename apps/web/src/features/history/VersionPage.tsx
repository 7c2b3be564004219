import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { LazyToaster } from "../../ui/LazyToaster.tsx";
import { notify } from "../../ui/notify.ts";
import { Canvas } from "../canvas/Canvas.tsx";
import { DocumentProvider } from "../document/context.tsx";
import { createDocumentStore, type DocumentStore } from "../document/store.ts";
import { readGraph } from "../persistence/read-graph.ts";
import { RunnerProvider } from "../runs/context.tsx";
import { createLazyRunner } from "../runs/lazy-runner.ts";
import { previewChanged } from "../workspace/store.ts";
import { LOCAL_PREFIX } from "../workspace/url-sync.ts";
import { failureMessage, versionActions } from "./version-actions.ts";

type Opened =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | {
      state: "open";
      name: string;
      createdAt: string;
      label: string | null;
      author: string | null;
      changed: string[];
    };

/** Outlines the nodes that differ from the workflow now (ids escaped: they come from data). */
function Highlight({ ids }: { ids: readonly string[] }) {
  const rules = ids.map((id) => `.react-flow__node[data-id="${CSS.escape(id)}"]`).join(",\n");
  return rules ? (
    <style>{`${rules} { outline: 3px solid #f5a623; outline-offset: 4px; }`}</style>
  ) : null;
}

/** Loads the version into the page's own store, then fits it into view. */
function useVersion(store: DocumentStore, workflowId: string, version: number) {
  // The flow's handle changes as the canvas mounts and unmounts: read it when needed, so
  // the version is not fetched again each time.
  const handle = useReactFlow();
  const flow = useRef(handle);
  flow.current = handle;
  const [opened, setOpened] = useState<Opened>({ state: "loading" });
  useEffect(() => {
    let live = true;
    versionActions.open(workflowId, version).then(
      (found) => {
        if (!live) return;
        store.getState().load(readGraph(found.data).graph);
        document.title = `${found.workflowName} · version ${version} — Atelier`;
        setOpened({
          state: "open",
          name: found.workflowName,
          createdAt: found.version.created_at,
          label: found.version.name ?? null,
          author: found.version.author ?? null,
          changed: found.changed,
        });
        requestAnimationFrame(() => void flow.current.fitView());
      },
      (error) =>
        live &&
        setOpened({
          state: "failed",
          message: versionActions.isNotFound(error)
            ? "Version not found or not shared with you"
            : failureMessage(error, "Could not open the version"),
        }),
    );
    return () => {
      live = false;
    };
  }, [store, workflowId, version]);
  return opened;
}

function VersionView({
  store,
  workflowId,
  version,
}: {
  store: DocumentStore;
  workflowId: string;
  version: number;
}) {
  const opened = useVersion(store, workflowId, version);
  const [restoring, setRestoring] = useState(false);
  const restore = async () => {
    setRestoring(true);
    try {
      const made = await versionActions.restore(workflowId, version);
      notify.info(`Version ${version} restored as version ${made}`);
    } catch (error) {
      notify.error(failureMessage(error, "Could not restore the version"));
      setRestoring(false);
    }
  };
  if (opened.state === "failed") {
    return (
      <main className="centered notice-page">
        <h1>{opened.message}</h1>
        <p>
          <button type="button" onClick={() => versionActions.back(workflowId)}>
            Open the workflow
          </button>
        </p>
      </main>
    );
  }
  const changed = opened.state === "open" ? opened.changed.length : 0;
  return (
    <div className="app-shell">
      <header className="top-bar">
        <h1 className="logo">Atelier</h1>
        <span className="workflow-name">{opened.state === "open" ? opened.name : "…"}</span>
        <span className="share-badge" title="A saved version, read-only">
          Version {version}
          {opened.state === "open" ? ` · ${new Date(opened.createdAt).toLocaleString()}` : ""}
          {opened.state === "open" && opened.label ? ` · ${opened.label}` : ""}
          {" · read-only"}
        </span>
        <span className="muted" role="status">
          {opened.state === "loading"
            ? "Opening the version…"
            : changed === 0
              ? "Same nodes as the current version"
              : `${changed} ${changed === 1 ? "node differs" : "nodes differ"} from the current version (outlined)`}
        </span>
        <div className="top-actions">
          <button
            type="button"
            disabled={opened.state !== "open" || restoring}
            onClick={() => void restore()}
            title="Make this version the newest one (restoring another undoes it)"
          >
            {restoring ? "Restoring…" : "Restore this version"}
          </button>
          <button type="button" onClick={() => versionActions.back(workflowId)}>
            Back to the current version
          </button>
        </div>
      </header>
      <div className="workspace">
        <main className="canvas-area">
          <Canvas />
        </main>
      </div>
      {opened.state === "open" ? <Highlight ids={opened.changed} /> : null}
      <LazyToaster />
    </div>
  );
}

/**
 * `/w/:id?v=N`: a saved version of a cloud workflow, read-only on a canvas of its own (the
 * open workflow and its journal are not touched), with the nodes that differ from the
 * current version outlined, and a way to restore it.
 */
export function VersionPage({ params }: { params: Readonly<Record<string, string>> }) {
  // `/w/:id?v=N` in the cloud, `/local/:localId?v=N` on this device (the id without its prefix).
  const workflowId = params.localId ? `${LOCAL_PREFIX}${params.localId}` : (params.id ?? "");
  const version = Number(params.v);
  const store = useMemo(() => createDocumentStore(), []);
  const runner = useMemo(() => createLazyRunner(store, {}), [store]);
  useEffect(() => {
    previewChanged(version);
    return () => {
      previewChanged(null);
      runner.dispose();
    };
  }, [version, runner]);
  if (!Number.isInteger(version) || version < 1) {
    return (
      <main className="centered notice-page">
        <h1>Version not found or not shared with you</h1>
      </main>
    );
  }
  return (
    <DocumentProvider store={store}>
      <RunnerProvider value={runner}>
        <ReactFlowProvider>
          <VersionView
            key={`${workflowId}/${version}`}
            store={store}
            workflowId={workflowId}
            version={version}
          />
        </ReactFlowProvider>
      </RunnerProvider>
    </DocumentProvider>
  );
}
