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
  it("waits for the first pointer or key press where a service worker keeps the chunks, once", async () => {
    withServiceWorker(true);
    warmUpOnFirstUse();
    await settled();
    expect(warmUp).not.toHaveBeenCalled();
    expect(idle).not.toHaveBeenCalled();
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "a" }));
    await settled();
    expect(warmUp).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new PointerEvent("pointerdown"));
    await settled();
    expect(warmUp).toHaveBeenCalledTimes(1);
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
