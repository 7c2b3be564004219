import { type SyntheticEvent, useState } from "react";
import { DownloadLink } from "./DownloadLink.tsx";
import {
  aspectRatioText,
  describeMeta,
  formatOf,
  type MediaMeta,
  type ViewerProps,
} from "./media-meta.ts";

/** A video result: a player (poster = the captured frame), its metadata and a download link. */
export function VideoViewer({ url, still }: ViewerProps) {
  const [meta, setMeta] = useState<MediaMeta>(() => ({ format: formatOf(url) }));

  const onLoadedMetadata = (event: SyntheticEvent<HTMLVideoElement>) => {
    const { videoWidth: width, videoHeight: height, duration } = event.currentTarget;
    setMeta((current) => ({
      ...current,
      width,
      height,
      aspectRatio: aspectRatioText(width, height),
      duration,
    }));
  };
  const onError = () => setMeta((current) => ({ ...current, error: "Failed to load video" }));

  return (
    <figure className="media-viewer">
      {/* biome-ignore lint/a11y/useMediaCaption: generated results carry no caption track. */}
      <video
        className="media-video nodrag"
        src={url}
        poster={still}
        controls
        preload="metadata"
        playsInline
        onLoadedMetadata={onLoadedMetadata}
        onError={onError}
        style={
          meta.width && meta.height ? { aspectRatio: `${meta.width} / ${meta.height}` } : undefined
        }
      />
      <figcaption className="media-meta">
        {meta.error ? (
          <span className="media-error">{meta.error}</span>
        ) : (
          <span>{describeMeta(meta)}</span>
        )}
        <DownloadLink url={url} kind="video" />
      </figcaption>
    </figure>
  );
}

export default VideoViewer;
