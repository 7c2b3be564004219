/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from "virtual:pwa-register";
import { notify } from "../ui/notify.ts";

/** How often an open tab asks whether a new version has been deployed. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export const UPDATE_READY = "A new version of Atelier is ready.";
export const RELOAD_TO_UPDATE = "Reload to update";

/**
 * Registers the service worker (vite.config.ts) so the shell and the editor's code open with
 * no network. A new version installs beside the running one and waits: the user is told, and
 * it takes over only when they choose "Reload to update" (then the page reloads once).
 */
export function startServiceWorker(): void {
  // Workbox can report one waiting worker twice ("installed", then "waiting"): one message.
  let announced = false;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
  const update = registerSW({
    immediate: true,
    onNeedRefresh: () => {
      if (announced) return;
      announced = true;
      notify.action(UPDATE_READY, RELOAD_TO_UPDATE, () => {
        // Workbox reloads only a page that was controlled when it loaded; a first visit's tab
        // learns of the new worker from the controller change.
        navigator.serviceWorker.addEventListener("controllerchange", reload, { once: true });
        void update(true);
      });
    },
    onNeedReload: reload,
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      const check = () => {
        if (navigator.onLine) void registration.update().catch(() => {});
      };
      setInterval(check, UPDATE_CHECK_MS);
      // A tab left open for days learns of a deploy when the user comes back to it.
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") check();
      });
    },
    // Without a service worker (a private window, a browser that refuses it) the editor still
    // works online; only the offline start is lost.
    onRegisterError: () => {},
  });
}
