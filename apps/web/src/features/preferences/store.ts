import { NOTIFICATION_SETTING_DEFAULT, PREFERENCE_DEFAULTS } from "@atelier/core";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

/**
 * SPEC §9 gives both readings: `notificationsEnabled` is on in the preference defaults, yet the
 * notification setting itself is off until the user enables it (§4). Both are kept rather than
 * flipping the core default: `notificationsEnabled` stays as stored (on), and the separate
 * `desktopNotifications` flag (off) is the opt-in that asks the browser for permission. A desktop
 * notification needs both. Adding a key keeps the stored shape compatible: a preference saved
 * before it existed is merged over these defaults, so it reads as off.
 */
export const PREFERENCES = {
  ...PREFERENCE_DEFAULTS,
  desktopNotifications: NOTIFICATION_SETTING_DEFAULT,
};

export type Preferences = typeof PREFERENCES;

interface PreferenceActions {
  setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void;
  resetPreferences(): void;
}

/** User preferences of SPEC §3 with the defaults of SPEC §9, kept in this browser. */
export const usePreferences = create<Preferences & PreferenceActions>()(
  persist(
    (set) => ({
      ...PREFERENCES,
      setPreference: (key, value) => set({ [key]: value } as Partial<Preferences>),
      resetPreferences: () => set({ ...PREFERENCES }),
    }),
    { name: "atelier.preferences", version: 1, storage: createJSONStorage(() => localStorage) },
  ),
);
