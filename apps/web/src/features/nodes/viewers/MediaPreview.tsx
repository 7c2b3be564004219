import { listOutputMedia, MEDIA_OUTPUT_KIND, mediaOutputKeys } from "@atelier/core";
import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  memo,
  Suspense,
  useState,
} from "react";
import { BlockedNote } from "./BlockedNote.tsx";
import type { ViewerProps } from "./media-meta.ts";
import { mediaSrc } from "./safe-url.ts";
import "./viewers.css";

/**
 * A node's results (SPEC §3 media output keys, plus `text`): one lazily loaded viewer per
 * kind of media, a switcher when a kind holds several results, and the text block. Kept
 * tiny on purpose: every viewer, and three.js behind the 3D one, loads on first use.
 */

type Kind = "video" | "image" | "model" | "audio";
type Viewer = LazyExoticComponent<ComponentType<ViewerProps>>;

const VIEWERS: Record<Kind, Viewer> = {
  video: lazy(() => import("./VideoViewer.tsx")),
  image: lazy(() => import("./ImageViewer.tsx")),
  model: lazy(() => import("./ModelViewer.tsx")),
  audio: lazy(() => import("./AudioViewer.tsx")),
};
const ORDER: Kind[] = ["video", "image", "model", "audio"];
// "Offline preview" (it reads the result's provenance): its own chunk, so what the editor
// preloads with this preview does not grow.
const OfflineBadge = lazy(() =>
  import("./OfflineBadge.tsx").then((module) => ({ default: module.OfflineBadge })),
);
/** Viewer of each media output kind (core's media-outputs.ts); a still shows with its model. */
const KEY_KINDS: Record<string, Kind> = {};
for (const [key, kind] of Object.entries(MEDIA_OUTPUT_KIND)) {
  if (kind === "video" || kind === "audio") KEY_KINDS[key] = kind;
  else if (kind === "object") KEY_KINDS[key] = "model";
}
const MODEL_URL = /^data:model\/|\.(glb|gltf)([?#]|$)/i;
const STILL_KEYS = new Set<string>(mediaOutputKeys("still"));

interface Group {
  kind: Kind;
  urls: string[];
  still?: string | undefined;
  /** How many of its addresses the allow-list dropped. */
  blocked?: number;
}

function kindOf(key: string, url: string): Kind {
  return MODEL_URL.test(url) ? "model" : (KEY_KINDS[key] ?? "image");
}

/**
 * Media of each kind, in display order; a model's snapshot (or mesh preview) is its still.
 * Only addresses core's allow-list passes are kept; the rest are counted as `blocked`.
 */
export function groupOutputMedia(outputs: Record<string, unknown> | undefined): Group[] {
  const media = listOutputMedia(outputs).map((item) => ({
    ...item,
    kind: kindOf(item.key, item.url),
  }));
  const hasModel = media.some((item) => item.kind === "model");
  const groups = new Map<Kind, Group>();
  const groupOf = (kind: Kind) => {
    const group = groups.get(kind) ?? { kind, urls: [] };
    groups.set(kind, group);
    return group;
  };
  const blocked = (group: Group) => {
    group.blocked = (group.blocked ?? 0) + 1;
  };
  let still: string | undefined;
  for (const { key, url, kind } of media) {
    if (hasModel && kind === "image" && STILL_KEYS.has(key)) {
      const src = mediaSrc(url, "image");
      if (src) still ??= src;
      else blocked(groupOf("model"));
      continue;
    }
    const group = groupOf(kind);
    const src = mediaSrc(url, kind);
    if (!src) blocked(group);
    else if (!group.urls.includes(src)) group.urls.push(src);
  }
  const model = groups.get("model");
  if (model) model.still = still;
  const video = groups.get("video");
  const frame = outputs?.capturedFrame;
  if (video && typeof frame === "string" && frame) {
    video.still = mediaSrc(frame, "image") ?? undefined;
    if (!video.still) blocked(video);
  }
  return ORDER.flatMap((kind) => groups.get(kind) ?? []);
}

function MediaGroup({ kind, urls, still, blocked }: Group) {
  const [index, setIndex] = useState(0);
  if (urls.length === 0) return <BlockedNote count={blocked ?? 0} />;
  const url = urls[Math.min(index, urls.length - 1)] ?? "";
  const Viewer = VIEWERS[kind];
  return (
    <div className="media-group">
      <Suspense fallback={<div className="media-skeleton" aria-busy="true" title="Loading…" />}>
        <Viewer key={url} url={url} still={still} />
      </Suspense>
      {urls.length > 1 ? (
        <fieldset className="media-strip">
          <legend>Results</legend>
          {urls.map((item, position) => (
            <button
              key={item}
              type="button"
              className="nodrag"
              aria-pressed={position === index}
              aria-label={`Result ${position + 1} of ${urls.length}`}
              onClick={() => setIndex(position)}
            >
              {position + 1}
            </button>
          ))}
        </fieldset>
      ) : null}
      <BlockedNote count={blocked ?? 0} />
    </div>
  );
}

/** Drop-in content for a node's output section; renders "No output yet" when empty. */
export const MediaPreview = memo(function MediaPreview({
  outputs,
}: {
  outputs: Record<string, unknown> | undefined;
}) {
  const groups = groupOutputMedia(outputs);
  const text = typeof outputs?.text === "string" && outputs.text ? outputs.text : null;
  if (groups.length === 0 && !text) return <span className="muted">No output yet</span>;
  return (
    <div className="media-preview">
      {groups.length > 0 ? (
        <Suspense fallback={null}>
          <OfflineBadge outputs={outputs} />
        </Suspense>
      ) : null}
      {groups.map((group) => (
        <MediaGroup key={group.kind} {...group} />
      ))}
      {text ? <p className="output-text">{text}</p> : null}
    </div>
  );
});
