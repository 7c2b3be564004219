import { lazy, Suspense, useState } from "react";
import { Modal } from "../../ui/Modal.tsx";
import { ShareLinks } from "./ShareLinks.tsx";

// App mode's publishing loads with its tab.
const PublishPanel = lazy(() =>
  import("../apps/PublishPanel.tsx").then((module) => ({ default: module.PublishPanel })),
);

/** Share: links with a role (view, run, edit), and publishing the workflow as an app. */
export function ShareDialog({ workflowId, onClose }: { workflowId: string; onClose(): void }) {
  const [tab, setTab] = useState<"links" | "app">("links");
  return (
    <Modal label="Share" onClose={onClose}>
      <div className="api-tokens">
        <h2>Share</h2>
        <div className="tabs" role="tablist" aria-label="Share">
          <button
            type="button"
            role="tab"
            aria-selected={tab === "links"}
            onClick={() => setTab("links")}
          >
            Links
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === "app"}
            onClick={() => setTab("app")}
          >
            App
          </button>
        </div>
        {tab === "links" ? (
          <ShareLinks workflowId={workflowId} />
        ) : (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <PublishPanel workflowId={workflowId} />
          </Suspense>
        )}
        <p className="muted">
          A revoked or expired link opens nothing. Links never reach your other workflows.
        </p>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}
