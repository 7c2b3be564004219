const HOLD_MS = 500;
const SLOP_PX = 8;

/**
 * Watches a finger put on a node: held still for 500 ms, it calls `onPress` with the node's
 * id and the finger's place (touch screens have no right-click). Moving more than 8 px (a
 * drag), lifting, or a second finger (a pinch) cancels it. Mouse and pen keep their
 * right-click; text fields keep the browser's own long-press (selecting, pasting).
 */
export function watchLongPress(
  event: PointerEvent,
  onPress: (id: string, x: number, y: number) => void,
): void {
  if (event.pointerType !== "touch" || !(event.target instanceof Element)) return;
  const id = event.target.closest(".react-flow__node")?.getAttribute("data-id");
  if (!id || event.target.closest("input, textarea, select")) return;
  const { pointerId, clientX: x, clientY: y } = event;
  const listening = new AbortController();
  const stop = () => {
    clearTimeout(timer);
    listening.abort();
  };
  const timer = setTimeout(() => {
    stop();
    onPress(id, x, y);
  }, HOLD_MS);
  // Another finger, or this one gone past the slop: a pinch or a drag, not a press.
  const moved = (next: PointerEvent) => {
    if (next.pointerId !== pointerId || Math.hypot(next.clientX - x, next.clientY - y) > SLOP_PX)
      stop();
  };
  const options = { signal: listening.signal };
  window.addEventListener("pointerdown", moved, options);
  window.addEventListener("pointermove", moved, options);
  window.addEventListener("pointerup", stop, options);
  window.addEventListener("pointercancel", stop, options);
}
