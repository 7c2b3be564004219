import { type SyntheticEvent, useEffect, useRef, useState } from "react";
import { DownloadLink } from "./DownloadLink.tsx";
import {
  aspectRatioText,
  describeMeta,
  formatOf,
  META_ERRORS,
  type MediaMeta,
  type ViewerProps,
} from "./media-meta.ts";

/** An image result: a thumbnail that opens a larger view, its metadata and a download link. */
export function ImageViewer({ url }: ViewerProps) {
  const [meta, setMeta] = useState<MediaMeta>(() => ({ format: formatOf(url) }));
  const [open, setOpen] = useState(false);

  const onLoad = (event: SyntheticEvent<HTMLImageElement>) => {
    const { naturalWidth: width, naturalHeight: height } = event.currentTarget;
    setMeta((current) => ({
      ...current,
      width,
      height,
      aspectRatio: aspectRatioText(width, height),
    }));
  };
  const onError = () => setMeta((current) => ({ ...current, error: META_ERRORS.image }));

  return (
    <figure className="media-viewer">
      {meta.error ? (
        <p className="media-error">{meta.error}</p>
      ) : (
        <button
          type="button"
          className="media-thumb nodrag"
          onClick={() => setOpen(true)}
          title="Open larger view"
        >
          <img
            src={url}
            alt="Output"
            loading="lazy"
            decoding="async"
            onLoad={onLoad}
            onError={onError}
            style={
              meta.width && meta.height
                ? { aspectRatio: `${meta.width} / ${meta.height}` }
                : undefined
            }
          />
        </button>
      )}
      <figcaption className="media-meta">
        <span>{describeMeta(meta)}</span>
        <DownloadLink url={url} kind="image" />
      </figcaption>
      {open ? <ImageDialog url={url} onClose={() => setOpen(false)} /> : null}
    </figure>
  );
}

/** The larger view: a native modal <dialog> (Escape and the backdrop close it). */
function ImageDialog({ url, onClose }: { url: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
    return () => dialog?.close?.();
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes a modal dialog natively.
    <dialog
      ref={ref}
      className="media-dialog nodrag nowheel nopan"
      aria-label="Image, larger view"
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) event.currentTarget.close();
      }}
    >
      <img src={url} alt="Output, larger view" decoding="async" />
      <div className="media-dialog-bar">
        <DownloadLink url={url} kind="image" />
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}

export default ImageViewer;
