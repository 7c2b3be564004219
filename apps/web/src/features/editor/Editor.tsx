import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { LazyToaster } from "../../ui/LazyToaster.tsx";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { Canvas, ShortcutSheetPart } from "../canvas/Canvas.tsx";
import { addNodeNear } from "../canvas/place-node.ts";
import { DocumentProvider, useDocumentStore } from "../document/context.tsx";
import { createDocumentStore } from "../document/store.ts";
import type { DocumentGraph } from "../document/types.ts";
import { Palette } from "../palette/Palette.tsx";
import { startAutosave } from "../persistence/autosave.ts";
import { PersistenceProvider, usePersistence } from "../persistence/context.tsx";
import { LoadProgress } from "../persistence/LoadProgress.tsx";
import { createPersistence } from "../persistence/persistence.ts";
import { hasUnsavedWork, useLeavePrompt } from "../persistence/unsaved-guard.ts";
import { RunnerProvider } from "../runs/context.tsx";
import { createLazyRunner } from "../runs/lazy-runner.ts";
import { useServerQueue } from "../runs/queue-store.ts";
import { useHasRuns } from "../runs/runs-store.ts";
import { useMissingWorkflow } from "../workspace/missing-workflow.ts";
import { useWorkspace } from "../workspace/store.ts";
import { TopBar } from "./TopBar.tsx";
import { warmUpOnFirstUse } from "./warm-up-trigger.ts";

/** The address ⇄ open workflow link arrives with the start-up open, not the first paint. */
const addressSync = () => import("../workspace/url-sync.ts");

// Panels load on first use: they are not part of the first paint.
const Library = lazy(() =>
  import("../library/Library.tsx").then((module) => ({ default: module.Library })),
);
const ApiTokensDialog = lazy(() =>
  import("../account/ApiTokensDialog.tsx").then((module) => ({ default: module.ApiTokensDialog })),
);
const RunHistory = lazy(() =>
  import("../runs/RunHistory.tsx").then((module) => ({ default: module.RunHistory })),
);
const HistoryPanel = lazy(() =>
  import("../history/HistoryPanel.tsx").then((module) => ({ default: module.HistoryPanel })),
);
const SignInDialog = lazy(() =>
  import("../library/SignInDialog.tsx").then((module) => ({ default: module.SignInDialog })),
);
const PreferencesPanel = lazy(() =>
  import("../preferences/PreferencesPanel.tsx").then((module) => ({
    default: module.PreferencesPanel,
  })),
);
const ConflictDialog = lazy(() =>
  import("../persistence/ConflictDialog.tsx").then((module) => ({
    default: module.ConflictDialog,
  })),
);
// The queue panel appears with the first job.
const QueuePanel = lazy(() =>
  import("../runs/QueuePanel.tsx").then((module) => ({ default: module.QueuePanel })),
);
const WorkflowNotFound = lazy(() =>
  import("./WorkflowNotFound.tsx").then((module) => ({ default: module.WorkflowNotFound })),
);

/** `?fixture=N` opens a generated N-node workflow (dev and `vite build --mode bench` only). */
async function fixtureFromUrl(): Promise<DocumentGraph | null> {
  // Checked first, so that the production build keeps none of it.
  if (import.meta.env.MODE === "production") return null;
  const count = Number(new URLSearchParams(window.location.search).get("fixture"));
  if (!Number.isInteger(count) || count <= 0) return null;
  const { generateFixture } = await import("@atelier/bench/fixtures");
  return generateFixture(Math.min(count, 10_000)) as unknown as DocumentGraph;
}

const SharedTopBar = lazy(() =>
  import("./SharedTopBar.tsx").then((module) => ({ default: module.SharedTopBar })),
);
const LeaveDialog = lazy(() =>
  import("../persistence/LeaveDialog.tsx").then((module) => ({ default: module.LeaveDialog })),
);
// The cost question of a run (cost-prompt.ts): its own small part, not the estimates'.
const CostDialog = lazyPart(() =>
  import("../costs/CostDialog.tsx").then((module) => module.CostDialog),
);
const ShareDialog = lazy(() =>
  import("../sharing/ShareDialog.tsx").then((module) => ({ default: module.ShareDialog })),
);

/** `openOnStart`: a workflow to open instead of the last session's work (a share link's). */
function Workspace({ openOnStart }: { openOnStart?: string | undefined }) {
  const store = useDocumentStore();
  const flow = useReactFlow();
  const persistence = usePersistence();
  const [panel, setPanel] = useState<
    | "preferences"
    | "shortcuts"
    | "sign-in"
    | "api-tokens"
    | "run-history"
    | "history"
    | "share"
    | null
  >(null);
  const serverQueued = useServerQueue((state) => state.paused || state.runs.length > 0);
  const cloudWorkflow = useWorkspace((state) =>
    state.location === "cloud" ? state.workflowId : null,
  );
  const openWorkflow = useWorkspace((state) => state.workflowId);
  const [tab, setTab] = useState<"nodes" | "library">("nodes");
  // Phones (styles.css, under 640 px): the sidebar is a bottom sheet, open only on demand.
  const [sheet, setSheet] = useState(false);
  const openSheet = (which: "nodes" | "library") => {
    setTab(which);
    setSheet(true);
  };
  const hasConflict = useWorkspace((state) => state.conflict !== null);
  const asking = useLeavePrompt((state) => state.pending !== null);
  const hasRuns = useHasRuns() || serverQueued;
  const shareRole = useWorkspace((state) => state.share?.role);
  const viewOnly = shareRole === "view";
  const missing = useMissingWorkflow((state) => state.id !== null);

  // Once per editor: who is signed in, then a fixture or what the address names (at "/",
  // the last session's work).
  const started = useRef<Promise<unknown> | null>(null);
  useEffect(() => {
    if (started.current) return;
    void persistence.refreshUser();
    // What the editor needs offline and for its first actions: at first use, or when idle.
    warmUpOnFirstUse();
    // A share link's page opens its workflow; its address stays the link's.
    if (openOnStart) {
      started.current = persistence.open(openOnStart);
      return;
    }
    started.current = fixtureFromUrl().then(async (graph) => {
      if (!graph) return (await addressSync()).openAtStart(persistence);
      store.getState().load(graph);
      // Large graphs reach React Flow in steps (flow-sync.ts): fit once all are there (10,000
      // nodes take 20–100 steps, one a frame: seconds on a slow core; 20 s at most).
      const fit = (frames: number) => {
        if (flow.getNodes().length < graph.nodes.length && frames < 1200)
          requestAnimationFrame(() => fit(frames + 1));
        // The bench waits for this mark before it measures the fitted view.
        else void flow.fitView().then(() => (document.documentElement.dataset.fixture = "fitted"));
      };
      requestAnimationFrame(() => fit(0));
    });
  }, [store, flow, persistence, openOnStart]);

  // Then the address follows the open workflow, and back/forward open the one it names.
  useEffect(() => {
    if (openOnStart) return;
    const following = addressSync().then((sync) =>
      sync.followAddress(persistence, store, started.current),
    );
    return () => void following.then((stop) => stop());
  }, [persistence, store, openOnStart]);

  useEffect(() => {
    const stopAutosave = startAutosave(persistence);
    const onHide = () => persistence.flushOnExit();
    // Closing the tab with unsaved edits or a save on its way: the browser asks first.
    const onLeave = (event: BeforeUnloadEvent) => {
      if (!hasUnsavedWork()) return;
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onLeave);
    // Coming back to the tab re-checks who is signed in (from the 60 s cache when fresh).
    const onFocus = () => void persistence.refreshUser();
    window.addEventListener("focus", onFocus);
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        void persistence.save();
      }
    };
    window.addEventListener("pagehide", onHide);
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("pagehide", onHide);
      window.removeEventListener("beforeunload", onLeave);
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("focus", onFocus);
      stopAutosave();
    };
  }, [persistence]);

  // A workflow opened (from the library, a template, a new one) is shown: the sheet goes.
  useEffect(
    () =>
      store.subscribe((state, before) => {
        if (state.loads !== before.loads) setSheet(false);
      }),
    [store],
  );

  const addAtCentre = useCallback(
    (type: string) => {
      setSheet(false); // on a phone, the new node is then in sight
      // At the centre of the view, or the nearest spot there free of other nodes.
      const centre = flow.screenToFlowPosition({
        x: window.innerWidth / 2,
        y: window.innerHeight / 2,
      });
      void addNodeNear(store, type, centre, true);
    },
    [flow, store],
  );

  if (missing) {
    return (
      <>
        <Suspense fallback={null}>
          <WorkflowNotFound onLibrary={() => openSheet("library")} />
        </Suspense>
        <LazyToaster />
      </>
    );
  }

  return (
    <div className="app-shell">
      {shareRole ? (
        <Suspense fallback={<header className="top-bar" />}>
          <SharedTopBar
            onApiTokens={() => setPanel("api-tokens")}
            onPreferences={() => setPanel("preferences")}
            onShortcuts={() => setPanel("shortcuts")}
            onSignIn={() => setPanel("sign-in")}
          />
        </Suspense>
      ) : (
        <TopBar
          onApiTokens={() => setPanel("api-tokens")}
          onRunHistory={() => setPanel("run-history")}
          onHistory={() => setPanel("history")}
          onPreferences={() => setPanel("preferences")}
          onShortcuts={() => setPanel("shortcuts")}
          onSignIn={() => setPanel("sign-in")}
          onShare={() => setPanel("share")}
        />
      )}
      <div className="workspace">
        <aside className={sheet ? "sidebar sheet-open" : "sidebar"} hidden={viewOnly}>
          <div className="sidebar-head">
            <div className="tabs" role="tablist" aria-label="Sidebar">
              <button
                type="button"
                role="tab"
                aria-selected={tab === "nodes"}
                onClick={() => setTab("nodes")}
              >
                Nodes
              </button>
              <button
                type="button"
                role="tab"
                aria-selected={tab === "library"}
                onClick={() => setTab("library")}
              >
                Library
              </button>
            </div>
            <button
              type="button"
              className="sheet-close"
              aria-label="Close"
              onClick={() => setSheet(false)}
            >
              ✕
            </button>
          </div>
          <Suspense fallback={<p className="muted">Loading…</p>}>
            {tab === "nodes" ? <Palette onAdd={addAtCentre} /> : <Library />}
          </Suspense>
        </aside>
        <main className="canvas-area">
          <Canvas />
          <LoadProgress />
          {viewOnly ? null : (
            // Phones only (styles.css): what opens the sidebar's sheet.
            <div className="sheet-toggles">
              <button type="button" onClick={() => openSheet("nodes")}>
                Nodes
              </button>
              <button type="button" onClick={() => openSheet("library")}>
                Library
              </button>
            </div>
          )}
          {hasRuns ? (
            <Suspense fallback={null}>
              <QueuePanel />
            </Suspense>
          ) : null}
        </main>
      </div>
      <Suspense fallback={null}>
        {panel === "preferences" ? <PreferencesPanel onClose={() => setPanel(null)} /> : null}
        {panel === "shortcuts" ? <ShortcutSheetPart onClose={() => setPanel(null)} /> : null}
        {panel === "sign-in" ? <SignInDialog onClose={() => setPanel(null)} /> : null}
        {panel === "api-tokens" ? <ApiTokensDialog onClose={() => setPanel(null)} /> : null}
        {panel === "share" && cloudWorkflow ? (
          <ShareDialog workflowId={cloudWorkflow} onClose={() => setPanel(null)} />
        ) : null}
        {panel === "history" && openWorkflow ? (
          <HistoryPanel workflowId={openWorkflow} onClose={() => setPanel(null)} />
        ) : null}
        {panel === "run-history" && cloudWorkflow ? (
          <RunHistory workflowId={cloudWorkflow} onClose={() => setPanel(null)} />
        ) : null}
      </Suspense>
      {hasConflict ? (
        <Suspense fallback={null}>
          <ConflictDialog />
        </Suspense>
      ) : null}
      {asking ? (
        <Suspense fallback={null}>
          <LeaveDialog />
        </Suspense>
      ) : null}
      <CostDialog />
      <LazyToaster />
    </div>
  );
}

/** The editor: one document store, the React Flow provider, the shell. */
export function Editor({ openOnStart }: { openOnStart?: string; params?: unknown } = {}) {
  const store = useMemo(() => createDocumentStore(), []);
  const persistence = useMemo(() => createPersistence(store), [store]);
  const runner = useMemo(
    () =>
      createLazyRunner(store, {
        onRunChange: () =>
          void import("../runs/queue-actions.ts").then((module) => module.queueActions.refresh()),
        // SPEC §9: a finished video or 3D node may raise a desktop notification.
        onComplete: (nodeId, type) => {
          const node = store.getState().nodes.find((candidate) => candidate.id === nodeId);
          void import("../runs/notifications.ts").then(({ notifyCompletion }) =>
            notifyCompletion(node?.type ?? type, node?.data.label),
          );
        },
      }),
    [store],
  );
  // The journal and live sync follow the document from here, not from its construction: a
  // first render React throws away (a suspended mount) must leave no follower behind.
  useEffect(() => persistence.start(), [persistence]);
  // Jobs of the open workflow are picked up again after every load of a document (an open,
  // a restored journal, a backup, an import) and when the signed-in user changes.
  useEffect(() => {
    const follow = () => {
      const { location, user, workflowId } = useWorkspace.getState();
      void runner.resume(location === "cloud" && user ? workflowId : null);
    };
    follow();
    const stopWorkspace = useWorkspace.subscribe((state, before) => {
      if (state.workflowId !== before.workflowId || state.user !== before.user) follow();
    });
    const stopDocument = store.subscribe((state, before) => {
      if (state.loads !== before.loads) follow();
    });
    return () => {
      stopWorkspace();
      stopDocument();
      runner.dispose();
    };
  }, [runner, store]);
  return (
    <DocumentProvider store={store}>
      <PersistenceProvider value={persistence}>
        <RunnerProvider value={runner}>
          <ReactFlowProvider>
            <Workspace openOnStart={openOnStart} />
          </ReactFlowProvider>
        </RunnerProvider>
      </PersistenceProvider>
    </DocumentProvider>
  );
}
