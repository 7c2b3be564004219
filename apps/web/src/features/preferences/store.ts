import { PREFERENCE_DEFAULTS } from "@atelier/core";
import { create } from "zustand";
import { createJSONStorage, persist } from "zustand/middleware";

export type Preferences = typeof PREFERENCE_DEFAULTS;

interface PreferenceActions {
  setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void;
  resetPreferences(): void;
}

/** User preferences of SPEC §3 with the defaults of SPEC §9, kept in this browser. */
export const usePreferences = create<Preferences & PreferenceActions>()(
  persist(
    (set) => ({
      ...PREFERENCE_DEFAULTS,
      setPreference: (key, value) => set({ [key]: value } as Partial<Preferences>),
      resetPreferences: () => set({ ...PREFERENCE_DEFAULTS }),
    }),
    { name: "atelier.preferences", version: 1, storage: createJSONStorage(() => localStorage) },
  ),
);
