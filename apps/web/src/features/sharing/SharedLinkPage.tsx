import { SHARE_MESSAGES } from "@atelier/core";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { useWorkspace } from "../workspace/store.ts";
import { enterShareLink, type ShareOpenResponse, shareFailureMessage } from "./share-actions.ts";

const AppPage = lazy(() =>
  import("../apps/AppPage.tsx").then((module) => ({ default: module.AppPage })),
);
const Editor = lazy(() =>
  import("../editor/Editor.tsx").then((module) => ({ default: module.Editor })),
);

type Opened =
  | { state: "loading" }
  | { state: "gone" | "error"; message: string }
  | ShareOpenResponse;

function Notice({ children }: { children: ReactNode }) {
  return (
    <main className="centered notice-page">
      {children}
      <p>
        <a href="/">Open Atelier</a>
      </p>
    </main>
  );
}

/**
 * `/s/{token}`: a share link. A view link opens the canvas read-only, an edit link opens it
 * for saving (signed in), a run link the workflow's app; a revoked or expired one says so.
 */
export function SharedLinkPage({ params }: { params: Readonly<Record<string, string>> }) {
  const token = params.token ?? "";
  const [opened, setOpened] = useState<Opened>({ state: "loading" });
  const signedIn = useWorkspace((state) => state.user !== null);
  useEffect(() => {
    let live = true;
    enterShareLink(token).then(
      (found) => {
        if (!live) return;
        setOpened(found ?? { state: "gone", message: SHARE_MESSAGES.notFound });
        if (found) document.title = `${found.workflowName} — Atelier`;
      },
      (error) =>
        live &&
        setOpened({
          state: "error",
          message: shareFailureMessage(error, "Could not open the link"),
        }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  if ("state" in opened) {
    if (opened.state === "loading") return <p className="centered">Opening the shared link…</p>;
    return (
      <Notice>
        <h1>{opened.message}</h1>
        <p className="muted">Ask the person who shared it for a new link.</p>
      </Notice>
    );
  }
  if (opened.role === "run") {
    if (!opened.appSlug)
      return (
        <Notice>
          <h1>This workflow has no published app</h1>
          <p className="muted">The owner has not published it as an app yet.</p>
        </Notice>
      );
    return (
      <Suspense fallback={<p className="centered">Loading the app…</p>}>
        <AppPage slug={opened.appSlug} shareToken={token} />
      </Suspense>
    );
  }
  // An edit link opened signed out opens the workflow again once signed in.
  return (
    <Suspense fallback={<p className="centered">Loading the canvas…</p>}>
      <Editor key={signedIn ? "in" : "out"} openOnStart={opened.workflowId} />
    </Suspense>
  );
}
