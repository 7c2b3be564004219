/**
 * Moves dragged nodes on the compositor. React Flow moves a dragged node by rewriting its
 * inline transform on every pointer move, and Chromium then re-layers the whole canvas on
 * every frame (~10 ms with 2,000 nodes on screen): it skips that work only for transforms
 * it knows are animated. So while a drag lasts each dragged node carries an endless
 * animation that holds exactly the transform React Flow last wrote; the animation ends
 * with the drag, leaving the node where React Flow put it.
 */

/** Beyond this many dragged nodes the animations would cost more than they save. */
export const MAX_HELD_NODES = 50;

/** Holds the nodes `ids` under `root` while they are dragged; answers the release. */
export function holdDraggedNodes(root: HTMLElement, ids: readonly string[]): () => void {
  if (ids.length === 0 || ids.length > MAX_HELD_NODES) return () => undefined;
  const wanted = new Set(ids);
  const holds: { animation: Animation; observer: MutationObserver }[] = [];
  for (const element of root.querySelectorAll<HTMLElement>(".react-flow__node")) {
    const id = element.dataset.id;
    if (!id || !wanted.has(id) || typeof element.animate !== "function") continue;
    const frames = () => {
      const transform = element.style.transform;
      return [{ transform }, { transform }];
    };
    const animation = element.animate(frames(), { duration: 1000, iterations: Infinity });
    // Style mutations are reported before the frame is drawn, so the node never lags.
    const observer = new MutationObserver(() => {
      (animation.effect as KeyframeEffect | null)?.setKeyframes(frames());
    });
    observer.observe(element, { attributes: true, attributeFilter: ["style"] });
    holds.push({ animation, observer });
  }
  return () => {
    for (const { animation, observer } of holds.splice(0)) {
      observer.disconnect();
      animation.cancel();
    }
  };
}
