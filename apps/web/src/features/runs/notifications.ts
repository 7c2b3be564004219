import { getNodeDefinition, LIMITS, notificationKind } from "@atelier/core";
import { notify } from "../../ui/notify.ts";
import { usePreferences } from "../preferences/store.ts";

/** The part of the browser's Notification API used here. */
export interface NotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): Notification;
}

/** Tests inject their Notification, timers and toasts; the defaults are the browser's. */
export interface NotificationDeps {
  /** `null` stands for a browser without notifications. */
  Notification?: NotificationApi | null;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  warn?: (message: string) => void;
  error?: (message: string) => void;
}

export const NOTIFICATION_MESSAGES = {
  unsupported: "This browser does not support desktop notifications.",
  denied: "Desktop notifications are off: the browser refused permission for this site.",
  dismissed: "Desktop notifications are off: permission was not given.",
} as const;

export const NOTIFICATION_TITLES = {
  video: "Video Generation Complete",
  "3d": "3D Model Generation Complete",
} as const;

const browserApi = (deps: NotificationDeps): NotificationApi | null => {
  if (deps.Notification !== undefined) return deps.Notification;
  return "Notification" in globalThis ? (globalThis.Notification as NotificationApi) : null;
};

/**
 * Asks the browser for permission (SPEC §4). True only when granted. A refusal shows why;
 * a browser without notifications only gets a warning.
 */
export async function enableNotifications(deps: NotificationDeps = {}): Promise<boolean> {
  const api = browserApi(deps);
  if (!api) {
    (deps.warn ?? notify.warning)(NOTIFICATION_MESSAGES.unsupported);
    return false;
  }
  const permission = await api.requestPermission().catch(() => "denied" as const);
  if (permission === "granted") return true;
  (deps.error ?? notify.error)(
    permission === "denied" ? NOTIFICATION_MESSAGES.denied : NOTIFICATION_MESSAGES.dismissed,
  );
  return false;
}

/**
 * The "Desktop notifications" toggle: on at once, back off when the browser refuses. Turning
 * it off never asks anything.
 */
export async function setDesktopNotifications(
  on: boolean,
  deps: NotificationDeps = {},
): Promise<void> {
  const { setPreference } = usePreferences.getState();
  setPreference("desktopNotifications", on);
  if (!on) return;
  setPreference("notificationsEnabled", true);
  if (!(await enableNotifications(deps))) setPreference("desktopNotifications", false);
}

/**
 * A desktop notification for a finished video or 3D node (SPEC §9), when the setting, the
 * node kind's own preference and the browser's permission all allow it. Closes after 10 s.
 */
export function notifyCompletion(
  nodeType: string,
  label?: string,
  deps: NotificationDeps = {},
): Notification | null {
  const preferences = usePreferences.getState();
  if (!preferences.desktopNotifications || !preferences.notificationsEnabled) return null;
  const kind = notificationKind(nodeType);
  if (kind === "video" && !preferences.videoCompletionNotifications) return null;
  if (kind === "3d" && !preferences.threeDGenerationNotifications) return null;
  const api = browserApi(deps);
  if (!kind || !api || api.permission !== "granted") return null;

  const name = label?.trim() || getNodeDefinition(nodeType)?.displayName || nodeType;
  let notification: Notification;
  try {
    notification = new api(NOTIFICATION_TITLES[kind], { body: `${name} has finished.` });
  } catch {
    return null; // e.g. browsers that only allow notifications from a service worker
  }
  notification.onclick = () => {
    globalThis.focus?.();
    notification.close();
  };
  (deps.setTimeout ?? globalThis.setTimeout)(
    () => notification.close(),
    LIMITS.timing.notificationAutoCloseMs,
  );
  return notification;
}
