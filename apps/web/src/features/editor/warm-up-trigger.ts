import { whenIdle } from "../../services/when-idle.ts";

const warm = () => void import("./warm-up.ts").then((module) => module.warmUp()).catch(() => {});

/**
 * Fetches what the editor needs offline and for its first actions (warm-up.ts). Where a
 * service worker keeps every chunk for offline use, that waits for the first key, pointer
 * or wheel press, so a visit that only looks downloads only what it shows (issue 26, F2);
 * where none can (plain HTTP), it is fetched as soon as the browser is idle, as before.
 *
 * Even after that first press it waits for the browser to be idle, and a pointer press (a
 * touch starts with one too) for its release or the window's blur: the first press is
 * often the start of a drag, and seventeen chunks compiled and run under it made that
 * drag's frames several times slower (C1's first rounds).
 */
export function warmUpOnFirstUse(): void {
  if (!("serviceWorker" in navigator && window.isSecureContext)) {
    whenIdle(warm);
    return;
  }
  const first = new AbortController();
  const once = (event: Event) => {
    first.abort();
    if (event.type !== "pointerdown") {
      whenIdle(warm);
      return;
    }
    const press = new AbortController();
    const released = () => {
      press.abort();
      whenIdle(warm);
    };
    const options = { capture: true, signal: press.signal };
    window.addEventListener("pointerup", released, options);
    window.addEventListener("pointercancel", released, options);
    // Not captured: an element's blur would be heard too.
    window.addEventListener("blur", released, { signal: press.signal });
  };
  for (const type of ["pointerdown", "keydown", "wheel"])
    window.addEventListener(type, once, { capture: true, passive: true, signal: first.signal });
}
