import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchLongPress } from "../src/features/canvas/long-press.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = "";
});

/** A node as React Flow draws it, with a text field and a title inside. */
function node() {
  document.body.innerHTML = `
    <div class="react-flow__node" data-id="n1">
      <span class="node-title">Text</span>
      <textarea></textarea>
    </div>`;
  return {
    title: document.querySelector(".node-title") as Element,
    field: document.querySelector("textarea") as Element,
  };
}

function press(pointerType = "touch", target = node().title) {
  const onPress = vi.fn();
  const down = new PointerEvent("pointerdown", {
    pointerType,
    pointerId: 1,
    clientX: 100,
    clientY: 200,
  });
  Object.defineProperty(down, "target", { value: target });
  watchLongPress(down, onPress);
  return onPress;
}

const send = (type: string, pointerId: number, clientX: number, clientY: number) =>
  window.dispatchEvent(new PointerEvent(type, { pointerId, clientX, clientY }));

describe("long-press on a node", () => {
  it("opens after 500 ms held still, with the node's id and the finger's place", () => {
    const onPress = press();
    vi.advanceTimersByTime(499);
    expect(onPress).not.toHaveBeenCalled();
    send("pointermove", 1, 105, 205); // within the 8 px slop
    vi.advanceTimersByTime(1);
    expect(onPress).toHaveBeenCalledExactlyOnceWith("n1", 100, 200);
  });

  it("is cancelled by a move past 8 px, a lift, or a second finger", () => {
    for (const cancel of [
      () => send("pointermove", 1, 100, 209),
      () => send("pointerup", 1, 100, 200),
      () => send("pointercancel", 1, 100, 200),
      () => send("pointerdown", 2, 300, 200),
    ]) {
      const onPress = press();
      cancel();
      vi.advanceTimersByTime(1000);
      expect(onPress).not.toHaveBeenCalled();
    }
  });

  it("leaves the mouse, the pen and text fields alone", () => {
    for (const onPress of [press("mouse"), press("pen"), press("touch", node().field)]) {
      vi.advanceTimersByTime(1000);
      expect(onPress).not.toHaveBeenCalled();
    }
  });
});
