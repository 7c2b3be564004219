import { Modal } from "../../ui/Modal.tsx";
import { setDesktopNotifications } from "../runs/notifications.ts";
import { type Preferences, THEME_CHOICES, type ThemeChoice, usePreferences } from "./store.ts";

const THEME_LABELS: Record<ThemeChoice, string> = {
  system: "As the system",
  light: "Light",
  dark: "Dark",
};

type Toggle = { key: keyof Preferences; label: string };

const TOGGLES: Toggle[] = [
  { key: "showNodeLabels", label: "Show node labels" },
  { key: "showMinimap", label: "Show minimap" },
  { key: "snapToGrid", label: "Snap to grid" },
  { key: "autoSaveEnabled", label: "Autosave" },
  { key: "autoUploadMedia", label: "Upload media to storage automatically" },
  { key: "compressImagesBeforeUpload", label: "Compress images before upload" },
];

/** One per notable node kind (SPEC §9); on by default, they only matter once enabled. */
const NOTIFICATION_KINDS: Toggle[] = [
  { key: "videoCompletionNotifications", label: "Notify when a video is ready" },
  { key: "threeDGenerationNotifications", label: "Notify when a 3D model is ready" },
];

/** Every preference of SPEC §3, kept in this browser. */
export function PreferencesPanel({ onClose }: { onClose(): void }) {
  const preferences = usePreferences();
  const checkbox = ({ key, label }: Toggle) => (
    <label key={key} className="pref">
      <input
        type="checkbox"
        checked={Boolean(preferences[key])}
        onChange={(event) => preferences.setPreference(key, event.target.checked as never)}
      />
      {label}
    </label>
  );
  return (
    <Modal label="Preferences" onClose={onClose}>
      <h2>Preferences</h2>
      <label className="pref">
        Theme
        <select
          aria-label="Theme"
          value={preferences.theme}
          onChange={(event) =>
            preferences.setPreference("theme", event.target.value as ThemeChoice)
          }
        >
          {THEME_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {THEME_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      {TOGGLES.map(checkbox)}
      <label className="pref">
        <input
          type="checkbox"
          checked={preferences.desktopNotifications && preferences.notificationsEnabled}
          onChange={(event) => void setDesktopNotifications(event.target.checked)}
        />
        Desktop notifications
      </label>
      {NOTIFICATION_KINDS.map(checkbox)}
      <label className="pref">
        Autosave every
        <input
          type="number"
          min={1}
          max={60}
          value={preferences.autoSaveInterval}
          onChange={(event) =>
            preferences.setPreference("autoSaveInterval", Math.max(1, Number(event.target.value)))
          }
          aria-label="Autosave interval (minutes)"
        />
        minutes
      </label>
      <label className="pref">
        Largest image before compression
        <input
          type="number"
          min={1}
          max={50}
          value={preferences.maxImageSize}
          onChange={(event) =>
            preferences.setPreference("maxImageSize", Math.max(1, Number(event.target.value)))
          }
          aria-label="Maximum image size (MB)"
        />
        MB
      </label>
      <label className="pref">
        Ask before runs estimated above $
        <input
          type="number"
          min={0}
          max={10000}
          step={0.5}
          value={preferences.confirmRunAboveUsd}
          onChange={(event) =>
            preferences.setPreference(
              "confirmRunAboveUsd",
              Math.max(0, Number(event.target.value) || 0),
            )
          }
          aria-label="Ask before runs estimated above (US dollars)"
        />
      </label>
      <div className="modal-actions">
        <button type="button" onClick={() => preferences.resetPreferences()}>
          Reset to defaults
        </button>
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Modal>
  );
}
