import { type CSSProperties, type RefObject, useLayoutEffect, useRef, useState } from "react";

export interface Point {
  x: number;
  y: number;
}
export interface Size {
  width: number;
  height: number;
}

/** Room kept between a popup and the window's edges. */
const MARGIN = 8;

/** One axis: after the point if it fits, else flipped before it, then kept within the room. */
function placeAxis(point: number, length: number, room: number, margin: number): number {
  const end = room - margin;
  const start = point + length <= end ? point : point - length;
  // A box longer than the room starts at the margin: its top or left stays reachable.
  return Math.max(margin, Math.min(start, end - length));
}

/**
 * The top-left corner for a popup of `size` opened at `at`, so that it lies wholly in
 * `room` (the window): below and right of the point when there is space, flipped above or
 * left of it when not, and clamped to the edges as the last resort.
 */
export function placePopup(at: Point, size: Size, room: Size, margin = MARGIN): Point {
  return {
    x: placeAxis(at.x, size.width, room.width, margin),
    y: placeAxis(at.y, size.height, room.height, margin),
  };
}

/**
 * Places a `position: fixed` popup opened at a pointer position: measured once it is laid
 * out and moved before the browser paints, so it never shows outside the window. It is not
 * placed again as its content changes: the input a user types into must not jump.
 */
export function usePopupPlacement<T extends HTMLElement>(
  at: Point,
): { ref: RefObject<T | null>; style: CSSProperties } {
  const ref = useRef<T>(null);
  const [corner, setCorner] = useState(at);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    setCorner(
      placePopup(
        { x: at.x, y: at.y },
        { width: element.offsetWidth, height: element.offsetHeight },
        { width: root.clientWidth, height: root.clientHeight },
      ),
    );
  }, [at.x, at.y]);
  return { ref, style: { left: corner.x, top: corner.y } };
}
