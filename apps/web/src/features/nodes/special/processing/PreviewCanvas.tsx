import { useLayoutEffect, useRef, useState } from "react";

/** Draws in CSS pixels (device ratio applied); a string it answers is a problem to show. */
export type Draw = (ctx: CanvasRenderingContext2D) => unknown;

/**
 * A preview canvas of a fixed CSS size, sharp on high-density screens. It draws again only
 * when `draw` changes: callers memoize it on the source image and the parameters.
 */
export function PreviewCanvas({
  width,
  height,
  draw,
  label,
}: {
  width: number;
  height: number;
  draw: Draw;
  label: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useLayoutEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.imageSmoothingQuality = "high";
    const result = draw(ctx);
    setProblem(typeof result === "string" ? result : null);
  }, [width, height, draw]);
  return (
    <>
      <canvas
        ref={ref}
        className="processing-canvas"
        style={{ width, height }}
        role="img"
        aria-label={label}
      />
      {problem ? (
        <p className="processing-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}
