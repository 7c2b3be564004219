import { type RefObject, useEffect, useRef, useState } from "react";
import type { SceneCamera, TransformMode } from "./scene-state.ts";
import type { SceneView, SceneViewEvents, SceneViewItem } from "./scene-view.ts";

/** What the view should show; each part is pushed to it only when it changes. */
export interface SceneViewState {
  items: readonly SceneViewItem[];
  selected: string | null;
  mode: TransformMode;
  fov: number;
  background: string;
  camera: SceneCamera;
}

export const WEBGL_MISSING = "3D needs WebGL, which is turned off or unavailable in this browser";

/**
 * Mounts the three.js view into `stage` (three loads only now, in its own chunk), keeps it
 * in step with `state`, and disposes of it on unmount. Events go to the latest handlers.
 */
export function useSceneView(
  stage: RefObject<HTMLDivElement | null>,
  events: SceneViewEvents,
  state: SceneViewState,
): { view: SceneView | null; failure: string | null } {
  const [view, setView] = useState<SceneView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const handlers = useRef(events);
  useEffect(() => {
    handlers.current = events;
  });

  useEffect(() => {
    const host = stage.current;
    if (!host) return;
    let made: SceneView | null = null;
    let cancelled = false;
    import("./scene-view.ts")
      .then(({ createSceneView }) => {
        if (cancelled) return;
        made = createSceneView(host, {
          select: (key) => handlers.current.select(key),
          place: (key, placement) => handlers.current.place(key, placement),
          look: (camera) => handlers.current.look(camera),
          loaded: (key, url, error) => handlers.current.loaded(key, url, error),
        });
        setView(made);
      })
      .catch((error: unknown) => {
        console.error("The 3D scene could not start", error);
        if (!cancelled) setFailure(WEBGL_MISSING);
      });
    return () => {
      cancelled = true;
      made?.dispose();
    };
  }, [stage]);

  const { items, selected, mode, fov, background, camera } = state;
  // Declared in this order on purpose: items exist before one is selected.
  useEffect(() => view?.sync(items), [view, items]);
  useEffect(() => view?.select(selected), [view, selected]);
  useEffect(() => view?.setMode(mode), [view, mode]);
  useEffect(() => view?.setLens(fov), [view, fov]);
  useEffect(() => view?.setBackground(background), [view, background]);
  useEffect(() => view?.setCamera(camera), [view, camera]);
  return { view, failure };
}
