import { APP_MESSAGES } from "@atelier/core";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useWorkspace } from "../workspace/store.ts";
import { AppHistory } from "./AppHistory.tsx";
import { AppRunForm } from "./AppRunForm.tsx";

import {
  type AppRun,
  type AppView,
  appActions,
  appFailureMessage,
  isAppMissing,
} from "./app-actions.ts";
import { isFinished } from "./app-run-watch.ts";
import { RunResult } from "./RunResult.tsx";
import "./apps.css";

// The cost question (a run above the user's threshold): loaded with the first one.
const CostDialog = lazy(() =>
  import("../costs/CostDialog.tsx").then((module) => ({ default: module.CostDialog })),
);

const published = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

type Loaded =
  | { state: "loading" }
  | { state: "missing" }
  | { state: "failed"; message: string }
  | { state: "ready"; app: AppView };

/** The page's title while it is open (the app's name), restored when it closes. */
function useTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return;
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/** A run in the history list replaced by its newer copy (or added first). */
const withRun = (runs: readonly AppRun[], run: AppRun) =>
  runs.some((item) => item.id === run.id)
    ? runs.map((item) => (item.id === run.id ? run : item))
    : [run, ...runs];

/**
 * A published app (`/a/{slug}`, or a run link's page with its token): the form, a Run
 * button, the run's progress and outputs, and the app's history. It runs the app's
 * published version on the server; nothing of the editor or canvas is loaded.
 */
export function AppPage({ slug, shareToken }: { slug: string; shareToken?: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const [sessionKnown, setSessionKnown] = useState(false);
  const user = useWorkspace((state) => state.user);
  const [run, setRun] = useState<AppRun | null>(null);
  const [history, setHistory] = useState<AppRun[]>([]);
  const [error, setError] = useState<string | null>(null);
  // A failed read while following a run; cleared by the next good one.
  const [trackError, setTrackError] = useState<string | null>(null);

  useEffect(() => {
    void appActions.loadSession().finally(() => setSessionKnown(true));
  }, []);

  // Read again when who is signed in changes: the owner's page differs (every run).
  const load = useCallback(async () => {
    try {
      setLoaded({ state: "ready", app: await appActions.open(slug, shareToken) });
    } catch (failure) {
      setLoaded(
        isAppMissing(failure)
          ? { state: "missing" }
          : { state: "failed", message: appFailureMessage(failure, "Could not load the app") },
      );
    }
  }, [slug, shareToken]);
  const userId = user?.id ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new user means a new read.
  useEffect(() => {
    if (sessionKnown) void load();
  }, [load, sessionKnown, userId]);

  const ready = loaded.state === "ready";
  useEffect(() => {
    if (!ready || !userId) return setHistory([]);
    let current = true;
    appActions.history(slug, shareToken).then(
      (runs) => current && setHistory(runs),
      (failure) => current && setError(appFailureMessage(failure, "Could not load the history")),
    );
    return () => {
      current = false;
    };
  }, [ready, userId, slug, shareToken]);

  // The shown run is followed until it ends.
  const following = run && !isFinished(run) ? run.id : null;
  useEffect(() => {
    if (!following) return;
    return appActions.watch(slug, following, shareToken, {
      onRun: (next) => {
        setTrackError(null);
        setRun((shown) => (shown?.id === next.id ? next : shown));
        setHistory((runs) => withRun(runs, next));
      },
      onError: (failure) => setTrackError(appFailureMessage(failure, "Lost track of the run")),
    });
  }, [following, slug, shareToken]);

  const started = useCallback((next: AppRun) => {
    setError(null);
    setTrackError(null);
    setRun(next);
    setHistory((runs) => withRun(runs, next));
  }, []);

  const openPast = (past: AppRun) => {
    setError(null);
    setTrackError(null);
    setRun(past);
    appActions.read(slug, past.id, shareToken).then(
      (fresh) => setRun((shown) => (shown?.id === fresh.id ? fresh : shown)),
      (failure) => setError(appFailureMessage(failure, "Could not open the run")),
    );
  };

  useTitle(
    loaded.state === "ready"
      ? loaded.app.name
      : loaded.state === "missing"
        ? "App not found"
        : null,
  );

  if (loaded.state === "loading") return <p className="centered">Loading the app…</p>;
  if (loaded.state === "missing")
    return (
      <main className="app-page app-missing">
        <h1>{APP_MESSAGES.notFound}</h1>
        <p className="muted">Check the address, or ask whoever shared it for a new link.</p>
        <a href="/">Go to Atelier</a>
      </main>
    );
  if (loaded.state === "failed")
    return (
      <main className="app-page app-missing">
        <p className="form-error" role="alert">
          {loaded.message}
        </p>
        <button type="button" onClick={() => void load()}>
          Try again
        </button>
      </main>
    );

  const { app } = loaded;
  return (
    <div className="app-page">
      <header className="app-page-bar">
        <a className="logo" href="/">
          Atelier
        </a>
        <span className="muted">{user ? `Signed in as ${user.name || user.email}` : null}</span>
      </header>
      <Suspense fallback={null}>
        <CostDialog />
      </Suspense>
      <main className="app-page-body">
        <section className="app-card" aria-labelledby="app-title">
          <h1 id="app-title">{app.name}</h1>
          <p className="app-version muted">
            Version {app.version} · published {published.format(new Date(app.publishedAt))}
          </p>
          {app.description ? <p className="app-description">{app.description}</p> : null}
          <AppRunForm
            // A republished form starts from its own defaults.
            key={app.version}
            app={app}
            shareToken={shareToken}
            signedIn={!!user}
            sessionKnown={sessionKnown}
            running={!!following}
            onStarted={started}
          />
          {error || trackError ? (
            <p className="form-error" role="alert">
              {error ?? trackError}
            </p>
          ) : null}
        </section>
        <div className="app-results">
          {run ? (
            <RunResult run={run} />
          ) : (
            <section className="app-run app-run-empty" aria-label="Run result">
              <p className="muted">Fill in the form and press Run: the results appear here.</p>
            </section>
          )}
          {user ? (
            <AppHistory
              runs={history}
              isOwner={app.isOwner}
              shownId={run?.id ?? null}
              onOpen={openPast}
            />
          ) : null}
        </div>
      </main>
    </div>
  );
}
