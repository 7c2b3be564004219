import { afterEach, describe, expect, it, vi } from "vitest";

const warmUp = vi.fn();
vi.mock("../src/features/editor/warm-up.ts", () => ({ warmUp }));
const idle = vi.fn();
vi.mock("../src/services/when-idle.ts", () => ({ whenIdle: (task: () => void) => idle(task) }));

const { warmUpOnFirstUse } = await import("../src/features/editor/warm-up-trigger.ts");

/** Resolves once the dynamic import of warm-up.ts has settled. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

function withServiceWorker(secure: boolean) {
  Object.defineProperty(navigator, "serviceWorker", { value: {}, configurable: true });
  Object.defineProperty(window, "isSecureContext", { value: secure, configurable: true });
}

afterEach(() => {
  warmUp.mockClear();
  idle.mockClear();
});

describe("the editor's warm-up", () => {
  it("waits for the first key press where a service worker keeps the chunks, then for idle, once", async () => {
    withServiceWorker(true);
    warmUpOnFirstUse();
    await settled();
    expect(idle).not.toHaveBeenCalled();
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "a" }));
    expect(idle).toHaveBeenCalledTimes(1);
    expect(warmUp).not.toHaveBeenCalled();
    idle.mock.calls[0]?.[0]();
    await settled();
    expect(warmUp).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new PointerEvent("pointerdown"));
    window.dispatchEvent(new PointerEvent("pointerup"));
    expect(idle).toHaveBeenCalledTimes(1);
  });

  it("after a first pointer press, waits for its release (a drag may be starting)", async () => {
    withServiceWorker(true);
    warmUpOnFirstUse();
    window.dispatchEvent(new PointerEvent("pointerdown"));
    window.dispatchEvent(new PointerEvent("pointermove"));
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "Shift" }));
    expect(idle).not.toHaveBeenCalled();
    window.dispatchEvent(new PointerEvent("pointerup"));
    expect(idle).toHaveBeenCalledTimes(1);
    idle.mock.calls[0]?.[0]();
    await settled();
    expect(warmUp).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new PointerEvent("pointerup"));
    expect(idle).toHaveBeenCalledTimes(1);
  });

  it("runs when the browser is idle where no service worker can keep them (plain HTTP)", async () => {
    withServiceWorker(false);
    warmUpOnFirstUse();
    expect(idle).toHaveBeenCalledTimes(1);
    idle.mock.calls[0]?.[0]();
    await settled();
    expect(warmUp).toHaveBeenCalledTimes(1);
  });
});
