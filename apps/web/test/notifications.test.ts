import { LIMITS } from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePreferences } from "../src/features/preferences/store.ts";
import {
  enableNotifications,
  NOTIFICATION_MESSAGES,
  type NotificationApi,
  type NotificationDeps,
  notifyCompletion,
  setDesktopNotifications,
} from "../src/features/runs/notifications.ts";

/** A stand-in for the browser's Notification with a chosen permission answer. */
function fakeNotification(answer: NotificationPermission) {
  const shown: FakeNotification[] = [];
  class FakeNotification {
    static permission: NotificationPermission = "default";
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = answer;
      return answer;
    });
    onclick: (() => void) | null = null;
    close = vi.fn();
    constructor(
      readonly title: string,
      readonly options?: NotificationOptions,
    ) {
      shown.push(this);
    }
  }
  return { api: FakeNotification as unknown as NotificationApi, shown, FakeNotification };
}

const toasts = () => ({ warn: vi.fn(), error: vi.fn() });
const prefs = () => usePreferences.getState();

beforeEach(() => prefs().resetPreferences());
afterEach(() => vi.useRealTimers());

describe("desktop notifications setting", () => {
  it("is off by default, while notificationsEnabled keeps its SPEC default", () => {
    expect(prefs().desktopNotifications).toBe(false);
    expect(prefs().notificationsEnabled).toBe(true);
    expect(prefs().videoCompletionNotifications).toBe(true);
    expect(prefs().threeDGenerationNotifications).toBe(true);
  });

  it("granted: asks the browser once and stays on", async () => {
    const { api, FakeNotification } = fakeNotification("granted");
    const deps = { Notification: api, ...toasts() };
    await setDesktopNotifications(true, deps);
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(prefs().desktopNotifications).toBe(true);
    expect(deps.error).not.toHaveBeenCalled();
  });

  it("denied: turns the setting back off and says why", async () => {
    const { api } = fakeNotification("denied");
    const deps = { Notification: api, ...toasts() };
    await setDesktopNotifications(true, deps);
    expect(prefs().desktopNotifications).toBe(false);
    expect(deps.error).toHaveBeenCalledWith(NOTIFICATION_MESSAGES.denied);
  });

  it("a dismissed prompt counts as a refusal", async () => {
    const deps = { Notification: fakeNotification("default").api, ...toasts() };
    expect(await enableNotifications(deps)).toBe(false);
    expect(deps.error).toHaveBeenCalledWith(NOTIFICATION_MESSAGES.dismissed);
  });

  it("unsupported: a warning only", async () => {
    const deps: NotificationDeps = { Notification: null, ...toasts() };
    await setDesktopNotifications(true, deps);
    expect(prefs().desktopNotifications).toBe(false);
    expect(deps.warn).toHaveBeenCalledWith(NOTIFICATION_MESSAGES.unsupported);
    expect(deps.error).not.toHaveBeenCalled();
  });

  it("turning it off asks nothing", async () => {
    const { api, FakeNotification } = fakeNotification("granted");
    await setDesktopNotifications(false, { Notification: api });
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    expect(prefs().desktopNotifications).toBe(false);
  });
});

describe("notifyCompletion", () => {
  async function granted() {
    vi.useFakeTimers();
    const fake = fakeNotification("granted");
    const deps = { Notification: fake.api, ...toasts() };
    await setDesktopNotifications(true, deps);
    return { ...fake, deps };
  }

  it("shows the SPEC titles for video and 3D nodes, naming the node, and nothing for images", async () => {
    const { shown, deps } = await granted();
    notifyCompletion("veo3-video", "Opening shot", deps);
    notifyCompletion("tripo-3d", undefined, deps);
    expect(notifyCompletion("flux-pro", "Poster", deps)).toBeNull();
    expect(shown.map((notification) => notification.title)).toEqual([
      "Video Generation Complete",
      "3D Model Generation Complete",
    ]);
    expect(shown[0]?.options?.body).toContain("Opening shot");
    expect(shown[1]?.options?.body).toContain("Tripo");
  });

  it("closes itself after 10 s", async () => {
    const { deps } = await granted();
    const notification = notifyCompletion("veo3-video", "Clip", deps);
    expect(notification).not.toBeNull();
    vi.advanceTimersByTime(LIMITS.timing.notificationAutoCloseMs - 1);
    expect(notification?.close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(notification?.close).toHaveBeenCalledTimes(1);
  });

  it("respects the per-kind preferences", async () => {
    const { shown, deps } = await granted();
    prefs().setPreference("videoCompletionNotifications", false);
    expect(notifyCompletion("veo3-video", "Clip", deps)).toBeNull();
    expect(notifyCompletion("tripo-3d", "Model", deps)).not.toBeNull();
    prefs().setPreference("videoCompletionNotifications", true);
    prefs().setPreference("threeDGenerationNotifications", false);
    expect(notifyCompletion("tripo-3d", "Model", deps)).toBeNull();
    expect(notifyCompletion("veo3-video", "Clip", deps)).not.toBeNull();
    expect(shown.map((notification) => notification.title)).toEqual([
      "3D Model Generation Complete",
      "Video Generation Complete",
    ]);
  });

  it("shows nothing while the setting is off or permission is missing", async () => {
    const { deps, FakeNotification, shown } = await granted();
    prefs().setPreference("desktopNotifications", false);
    expect(notifyCompletion("veo3-video", "Clip", deps)).toBeNull();
    prefs().setPreference("desktopNotifications", true);
    FakeNotification.permission = "denied"; // revoked in the browser's site settings
    expect(notifyCompletion("veo3-video", "Clip", deps)).toBeNull();
    expect(notifyCompletion("veo3-video", "Clip", { Notification: null })).toBeNull();
    expect(shown).toHaveLength(0);
  });
});
