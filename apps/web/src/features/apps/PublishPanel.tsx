import { APP_LIMITS, type AppAccess } from "@atelier/core";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { useDocument } from "../document/context.tsx";
import { useWorkspace } from "../workspace/store.ts";
import { type AppSettings, appFailureMessage, publishActions } from "./app-actions.ts";
import { PickList } from "./PickList.tsx";
import {
  initialPicks,
  type NodeCandidate,
  type Picks,
  pickedRequest,
  publishCandidates,
} from "./publish-candidates.ts";
import "./apps.css";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** The document's candidates through a narrow selector: compared as one string. */
function useCandidates() {
  const joined = useDocument((state) =>
    JSON.stringify(publishCandidates(state.nodes, state.edges)),
  );
  const edges = useDocument((state) => state.edges);
  return { candidates: useMemo(() => JSON.parse(joined) as NodeCandidate[], [joined]), edges };
}

/** The app's address on this server (a path we build from the server's slug). */
const appPath = (slug: string) => `/a/${encodeURIComponent(slug)}`;

/**
 * App mode's publishing (the Share dialog's App tab): the owner picks the inputs a visitor
 * fills in and the results shown, names the app, says who may open it, and publishes the
 * workflow's last saved version (again after edits, or unpublishes).
 */
export function PublishPanel({ workflowId }: { workflowId: string }) {
  const { candidates, edges } = useCandidates();
  const dirty = useWorkspace((state) => state.dirty);
  const [settings, setSettings] = useState<AppSettings | null | undefined>(undefined);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [access, setAccess] = useState<AppAccess>("public");
  const [picks, setPicks] = useState<Picks | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    let current = true;
    // The workflow's name seeds a first app's name once; later renames do not change it.
    const workflowName = useWorkspace.getState().name;
    publishActions.settings(workflowId).then(
      (found) => {
        if (!current) return;
        setSettings(found);
        setName(found?.name ?? workflowName);
        setDescription(found?.description ?? "");
        setAccess(found?.access ?? "public");
      },
      (failure) => {
        if (!current) return;
        setSettings(null);
        setName(workflowName);
        setError(appFailureMessage(failure, "Could not read the app's settings"));
      },
    );
    return () => {
      current = false;
    };
  }, [workflowId]);

  // The picks start once the settings are known (published ones, or suggestions).
  const shownPicks = useMemo(
    () => picks ?? (settings === undefined ? null : initialPicks(candidates, edges, settings)),
    [picks, settings, candidates, edges],
  );

  if (settings === undefined || !shownPicks)
    return <p className="muted">Loading the app's settings…</p>;

  const publish = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const saved = await publishActions.publish(workflowId, {
        name,
        description,
        access,
        ...pickedRequest(candidates, shownPicks),
      });
      setSettings(saved);
      setPicks(initialPicks(candidates, edges, saved));
      setStatus(`Published version ${saved.version}`);
    } catch (failure) {
      setError(appFailureMessage(failure, "Could not publish the app"));
    } finally {
      setBusy(false);
    }
  };

  const unpublish = async () => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await publishActions.unpublish(workflowId);
      setSettings(null);
      setConfirming(false);
      setStatus("Unpublished: the app's page no longer opens");
    } catch (failure) {
      setError(appFailureMessage(failure, "Could not unpublish the app"));
    } finally {
      setBusy(false);
    }
  };

  const copy = async (path: string) => {
    const copied = await publishActions.copy(`${window.location.origin}${path}`);
    setStatus(copied ? "App address copied" : "Could not copy: select the address and copy it");
  };

  const path = settings ? appPath(settings.slug) : null;
  return (
    <form
      className="publish-panel"
      aria-label="Publish as an app"
      onSubmit={(event) => void publish(event)}
    >
      {dirty ? (
        <p className="publish-warning" role="note">
          Publishes the last saved version — save first
        </p>
      ) : null}
      {settings && path ? (
        <div className="publish-url">
          <code>{`${window.location.origin}${path}`}</code>
          <button type="button" onClick={() => void copy(path)}>
            Copy
          </button>
          <a href={path} target="_blank" rel="noopener noreferrer">
            Open
          </a>
          <span className="muted">
            Version {settings.version} · published {when.format(new Date(settings.publishedAt))}
          </span>
        </div>
      ) : (
        <p className="muted">
          Not published. An app is a simple page with a form: people fill in the inputs you pick,
          press Run and get the results, without seeing the workflow.
        </p>
      )}
      <label className="publish-setting">
        Name
        <input
          type="text"
          value={name}
          maxLength={APP_LIMITS.nameLength}
          required
          onChange={(event) => setName(event.currentTarget.value)}
        />
      </label>
      <label className="publish-setting">
        Description
        <textarea
          rows={2}
          value={description}
          maxLength={APP_LIMITS.descriptionLength}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
      </label>
      <PickList candidates={candidates} picks={shownPicks} onChange={setPicks} />
      <fieldset className="publish-access">
        <legend>Who can open it</legend>
        <label>
          <input
            type="radio"
            name="access"
            checked={access === "public"}
            onChange={() => setAccess("public")}
          />
          Anyone with the app's address
        </label>
        <label>
          <input
            type="radio"
            name="access"
            checked={access === "link"}
            onChange={() => setAccess("link")}
          />
          Only people with a run link
        </label>
      </fieldset>
      <p className="muted">Running the app needs an account.</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {status ? <p role="status">{status}</p> : null}
      <div className="modal-actions">
        {settings ? (
          confirming ? (
            <>
              <span>The page and its run links stop working.</span>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() => void unpublish()}
              >
                Unpublish
              </button>
            </>
          ) : (
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Unpublish…
            </button>
          )
        ) : null}
        <button type="submit" disabled={busy}>
          {settings ? "Republish" : "Publish"}
        </button>
      </div>
    </form>
  );
}
