import type { TransformMode } from "./scene-state.ts";

const MODES: { mode: TransformMode; label: string; key: string }[] = [
  { mode: "translate", label: "Move", key: "W" },
  { mode: "rotate", label: "Rotate", key: "E" },
  { mode: "scale", label: "Scale", key: "R" },
];
const LENSES = [35, 50, 85];

/** The gizmo mode (W/E/R) and the lens. */
export function SceneToolbar({
  mode,
  lens,
  onMode,
  onLens,
}: {
  mode: TransformMode;
  lens: number;
  onMode: (mode: TransformMode) => void;
  onLens: (lens: number) => void;
}) {
  return (
    <div className="scene-toolbar" role="toolbar" aria-label="Scene tools">
      <fieldset className="scene-modes" aria-label="Transform">
        {MODES.map((entry) => (
          <button
            key={entry.mode}
            type="button"
            aria-pressed={mode === entry.mode}
            title={`${entry.label} the selected item (${entry.key})`}
            onClick={() => onMode(entry.mode)}
          >
            {entry.label}
          </button>
        ))}
      </fieldset>
      <select
        className="scene-lens"
        aria-label="Lens"
        title="Lens (full-frame focal length)"
        value={lens}
        onChange={(event) => onLens(Number(event.target.value))}
      >
        {LENSES.map((mm) => (
          <option key={mm} value={mm}>
            {mm} mm
          </option>
        ))}
      </select>
    </div>
  );
}
