import { whenIdle } from "../../services/when-idle.ts";

const warm = () => void import("./warm-up.ts").then((module) => module.warmUp()).catch(() => {});
const FIRST_USE = ["pointerdown", "keydown", "touchstart", "wheel"] as const;

/**
 * Fetches what the editor needs offline and for its first actions (warm-up.ts). Where a
 * service worker keeps every chunk for offline use, that waits for the first key, pointer
 * or wheel press, so a visit that only looks downloads only what it shows (issue 26, F2);
 * where none can (plain HTTP), it is fetched as soon as the browser is idle, as before.
 */
export function warmUpOnFirstUse(): void {
  if (!("serviceWorker" in navigator && window.isSecureContext)) {
    whenIdle(warm);
    return;
  }
  const once = () => {
    for (const type of FIRST_USE) window.removeEventListener(type, once, true);
    warm();
  };
  for (const type of FIRST_USE)
    window.addEventListener(type, once, { capture: true, passive: true });
}
