import { whenIdle } from "../../services/when-idle.ts";

const warm = () => void import("./warm-up.ts").then((module) => module.warmUp()).catch(() => {});
const FIRST_USE = ["pointerdown", "keydown", "touchstart", "wheel"] as const;
const RELEASES = ["pointerup", "pointercancel", "touchend", "touchcancel"] as const;

/**
 * Fetches what the editor needs offline and for its first actions (warm-up.ts). Where a
 * service worker keeps every chunk for offline use, that waits for the first key, pointer
 * or wheel press, so a visit that only looks downloads only what it shows (issue 26, F2);
 * where none can (plain HTTP), it is fetched as soon as the browser is idle, as before.
 *
 * Even after that first press it waits for the browser to be idle, and a press for its
 * release: the first press is often the start of a drag, and seventeen chunks compiled and
 * run under it made that drag's frames several times slower (C1's first rounds).
 */
export function warmUpOnFirstUse(): void {
  if (!("serviceWorker" in navigator && window.isSecureContext)) {
    whenIdle(warm);
    return;
  }
  // The window losing focus ends a press too (its release goes elsewhere); an element's
  // blur, which a capturing listener would also hear, does not.
  const released = () => {
    for (const type of RELEASES) window.removeEventListener(type, released, true);
    window.removeEventListener("blur", released);
    whenIdle(warm);
  };
  const once = (event: Event) => {
    for (const type of FIRST_USE) window.removeEventListener(type, once, true);
    if (event.type !== "pointerdown" && event.type !== "touchstart") {
      whenIdle(warm);
      return;
    }
    for (const type of RELEASES)
      window.addEventListener(type, released, { capture: true, passive: true });
    window.addEventListener("blur", released);
  };
  for (const type of FIRST_USE)
    window.addEventListener(type, once, { capture: true, passive: true });
}
