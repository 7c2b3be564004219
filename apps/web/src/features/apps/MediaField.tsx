import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { mediaSrc } from "../nodes/viewers/safe-url.ts";
import { appActions, appFailureMessage, uploadKindOf } from "./app-actions.ts";

interface Props {
  id: string;
  label: string;
  accept: string;
  /** The uploaded file's URL, or "" when none is. */
  value: string;
  onChange(url: string): void;
  /** True from the moment a file is picked until its upload ends. */
  onBusy(busy: boolean): void;
}

/** What the field shows of the file: a local preview while it uploads, then the stored one. */
function Preview({
  url,
  kind,
  name,
}: {
  url: string;
  kind: ReturnType<typeof uploadKindOf>;
  name: string;
}) {
  const src = mediaSrc(url, kind === "3d" ? "model" : (kind ?? "any"));
  if (!src || kind === "3d") return <p className="app-file-name">{name}</p>;
  if (kind === "video") return <video src={src} muted controls className="app-preview" />;
  if (kind === "audio")
    // biome-ignore lint/a11y/useMediaCaption: the visitor's own file carries no caption track.
    return <audio src={src} controls className="app-preview-audio" />;
  return <img src={src} alt={`${name} preview`} className="app-preview" />;
}

/**
 * A file input of the app form: the file is uploaded as soon as it is picked (with a progress
 * bar), previewed, and replaceable; the form holds the URL the upload answered.
 */
export function MediaField({ id, label, accept, value, onChange, onBusy }: Props) {
  const kind = uploadKindOf(accept);
  const [local, setLocal] = useState<{ url: string; name: string } | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useRef<AbortController | null>(null);

  // The local preview's address is freed once another replaces it (or the page closes).
  useEffect(() => () => (local ? URL.revokeObjectURL(local.url) : undefined), [local]);
  useEffect(() => () => upload.current?.abort(), []);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = "";
    if (!file) return;
    upload.current?.abort();
    const controller = new AbortController();
    upload.current = controller;
    setError(null);
    setLocal({ url: URL.createObjectURL(file), name: file.name });
    setProgress(0);
    onChange("");
    onBusy(true);
    try {
      onChange(await appActions.upload(file, accept, setProgress, controller.signal));
    } catch (failure) {
      if (!controller.signal.aborted) {
        setError(appFailureMessage(failure, "Failed to upload media"));
        setLocal(null);
      }
    } finally {
      if (upload.current === controller) {
        upload.current = null;
        setProgress(null);
        onBusy(false);
      }
    }
  };

  const shown = local?.url ?? value;
  const name = local?.name ?? label;
  return (
    <div className="app-field app-media-field">
      <span className="app-field-label" id={`${id}-label`}>
        {label}
      </span>
      <div className="app-drop">
        {shown ? <Preview url={shown} kind={kind} name={name} /> : null}
        <label className="app-file-button">
          {shown ? "Replace file" : "Choose a file"}
          <input
            type="file"
            accept={accept}
            aria-labelledby={`${id}-label`}
            onChange={(event) => void pick(event)}
          />
        </label>
      </div>
      {progress !== null ? (
        <div className="app-upload-progress">
          <progress max={1} value={progress} aria-label={`Uploading ${label}`} />
          <span>Uploading · {Math.round(progress * 100)} %</span>
        </div>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
