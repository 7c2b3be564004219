import { useEffect, useState } from "react";
import { type ThemeChoice, usePreferences } from "./store.ts";

/*
 * The page's colours: the Theme preference, or the system's light/dark setting followed live.
 * The root element's `data-theme` picks the palette in styles.css; set before the first paint
 * (main.tsx) so a light system never flashes dark.
 */

const LIGHT = "(prefers-color-scheme: light)";

export type Theme = "light" | "dark";

function resolve(choice: ThemeChoice): Theme {
  if (choice !== "system") return choice;
  return typeof matchMedia === "function" && matchMedia(LIGHT).matches ? "light" : "dark";
}

function apply() {
  document.documentElement.dataset.theme = resolve(usePreferences.getState().theme);
}

/** Keeps `data-theme` on <html> current: with the preference and with the system. */
export function followTheme(): void {
  apply();
  usePreferences.subscribe((state, before) => {
    if (state.theme !== before.theme) apply();
  });
  if (typeof matchMedia === "function") matchMedia(LIGHT).addEventListener("change", apply);
}

/** The theme in use, for components that draw their own colours (the canvas). */
export function useTheme(): Theme {
  const choice = usePreferences((state) => state.theme);
  const [system, setSystem] = useState(() => resolve("system"));
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const query = matchMedia(LIGHT);
    const update = () => setSystem(query.matches ? "light" : "dark");
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return choice === "system" ? system : choice;
}
