import { type SyntheticEvent, useEffect, useRef, useState } from "react";
import { DownloadLink } from "./DownloadLink.tsx";
import {
  describeMeta,
  formatOf,
  isCrossOrigin,
  META_ERRORS,
  type MediaMeta,
  peaksOf,
  type ViewerProps,
} from "./media-meta.ts";

const BARS = 96;
/** Larger files keep the player but skip the waveform (decoding holds every sample). */
const MAX_WAVEFORM_BYTES = 30 * 1024 * 1024;
/** Decoding at a low rate is enough for peaks and keeps memory small. */
const DECODE_RATE = 8000;

class MetaError extends Error {}

/** Fetch and decode the audio into `BARS` peaks; null when it cannot or should not be drawn. */
async function loadPeaks(url: string, signal: AbortSignal): Promise<number[] | null> {
  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new MetaError(isCrossOrigin(url) ? META_ERRORS.cors : META_ERRORS.audio);
  }
  if (!response.ok) throw new MetaError(META_ERRORS.audio);
  if (Number(response.headers.get("content-length")) > MAX_WAVEFORM_BYTES) return null;
  const data = await response.arrayBuffer();
  if (signal.aborted || typeof OfflineAudioContext === "undefined") return null;
  try {
    const context = new OfflineAudioContext(1, 1, DECODE_RATE);
    const buffer = await context.decodeAudioData(data);
    return peaksOf(buffer.getChannelData(0), BARS);
  } catch {
    throw new MetaError(META_ERRORS.audio);
  }
}

function drawWaveform(canvas: HTMLCanvasElement, peaks: number[], played: number) {
  const context = canvas.getContext?.("2d");
  if (!context) return;
  const ratio = globalThis.devicePixelRatio || 1;
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const style = getComputedStyle(canvas);
  const base = style.color || "#8b8b96";
  const accent = style.getPropertyValue("--wave-played").trim() || base;
  context.clearRect(0, 0, width, height);
  const step = width / peaks.length;
  const barWidth = Math.max(1, step * 0.6);
  peaks.forEach((peak, index) => {
    const barHeight = Math.max(ratio, peak * height);
    context.fillStyle = (index + 0.5) / peaks.length <= played ? accent : base;
    context.fillRect(index * step, (height - barHeight) / 2, barWidth, barHeight);
  });
}

/** An audio result: a player over its waveform, its metadata and a download link. */
export function AudioViewer({ url }: ViewerProps) {
  const [meta, setMeta] = useState<MediaMeta>(() => ({ format: formatOf(url) }));
  const [peaks, setPeaks] = useState<number[] | null>(null);
  const [played, setPlayed] = useState(0);
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    loadPeaks(url, controller.signal).then(
      (result) => {
        if (!controller.signal.aborted) setPeaks(result);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof MetaError ? error.message : META_ERRORS.audio;
        setMeta((current) => ({ ...current, error: current.error ?? message }));
      },
    );
    return () => controller.abort();
  }, [url]);

  useEffect(() => {
    if (canvasRef.current && peaks) drawWaveform(canvasRef.current, peaks, played);
  }, [peaks, played]);

  const onLoadedMetadata = (event: SyntheticEvent<HTMLAudioElement>) => {
    const { duration } = event.currentTarget;
    setMeta((current) => ({ ...current, duration }));
  };
  const onTimeUpdate = (event: SyntheticEvent<HTMLAudioElement>) => {
    const { currentTime, duration } = event.currentTarget;
    if (peaks && duration > 0 && Number.isFinite(duration)) setPlayed(currentTime / duration);
  };
  const onError = () => setMeta((current) => ({ ...current, error: META_ERRORS.audio }));

  return (
    <figure className="media-viewer media-audio">
      {peaks ? (
        <canvas ref={canvasRef} className="media-wave" role="img" aria-label="Waveform" />
      ) : null}
      {/* biome-ignore lint/a11y/useMediaCaption: generated results carry no caption track. */}
      <audio
        className="nodrag"
        src={url}
        controls
        preload="metadata"
        onLoadedMetadata={onLoadedMetadata}
        onTimeUpdate={onTimeUpdate}
        onEnded={() => setPlayed(0)}
        onError={onError}
      />
      <figcaption className="media-meta">
        {meta.error ? (
          <span className="media-error">{meta.error}</span>
        ) : (
          <span>{describeMeta(meta)}</span>
        )}
        <DownloadLink url={url} kind="audio" />
      </figcaption>
    </figure>
  );
}

export default AudioViewer;
