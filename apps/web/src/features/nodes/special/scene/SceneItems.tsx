import type { Placement, SceneSource } from "./scene-state.ts";

/** Load results are per item and media: a source that runs again shows "Loading…" again. */
export const loadKey = (item: { key: string; url: string }) => `${item.key} ${item.url}`;

/**
 * The items in the scene, to pick one for the gizmo and to hide or show it. `loading`
 * holds each item's load result (by `loadKey`): absent while loading, null when shown,
 * else the error.
 */
export function SceneItems({
  items,
  selected,
  loading,
  onPick,
  onToggleHidden,
}: {
  items: readonly (SceneSource & { placement: Placement })[];
  selected: string | null;
  loading: Readonly<Record<string, string | null>>;
  onPick: (key: string) => void;
  onToggleHidden: (key: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="scene-items" aria-label="Scene items">
      {items.map((item) => {
        const error = loading[loadKey(item)];
        const hidden = Boolean(item.placement.hidden);
        return (
          <li key={item.key} className={hidden ? "is-hidden" : undefined}>
            <button
              type="button"
              className="scene-item"
              aria-pressed={item.key === selected}
              disabled={hidden}
              title={`${item.kind === "model" ? "3D model" : "Image"}: ${item.label}`}
              onClick={() => onPick(item.key)}
            >
              <span className="scene-kind" aria-hidden="true">
                {item.kind === "model" ? "3D" : "Img"}
              </span>
              {item.label}
            </button>
            {error ? (
              <span className="scene-item-error" role="alert">
                {error}
              </span>
            ) : error === undefined ? (
              <span className="muted">Loading…</span>
            ) : null}
            <button
              type="button"
              className="link"
              aria-label={`${hidden ? "Show" : "Hide"} ${item.label}`}
              onClick={() => onToggleHidden(item.key)}
            >
              {hidden ? "Show" : "Hide"}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
