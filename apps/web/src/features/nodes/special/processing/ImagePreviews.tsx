import { type LevelsParams, type ResizeFit, reframePlan, resizePlan } from "@atelier/core";
import { useCallback, useMemo } from "react";
import { drawLevels, drawReframe, drawResize, fitPreview, naturalSize } from "./draw.ts";
import { PreviewCanvas } from "./PreviewCanvas.tsx";

const sizeText = (size: { width: number; height: number }) => `${size.width} × ${size.height} px`;

function Caption({ children }: { children: string }) {
  return (
    <p className="processing-caption">
      <output aria-live="polite" aria-label="Result size">
        {children}
      </output>
    </p>
  );
}

/** The resize result at preview scale, with its size in pixels. */
export function ResizePreview({
  image,
  width,
  height,
  fit,
}: {
  image: HTMLImageElement;
  width: number;
  height: number;
  fit: ResizeFit;
}) {
  const plan = useMemo(
    () => resizePlan(naturalSize(image), { width, height }, fit),
    [image, width, height, fit],
  );
  const view = fitPreview(plan.output);
  const draw = useCallback(
    (ctx: CanvasRenderingContext2D) => drawResize(ctx, image, plan, view.scale),
    [image, plan, view.scale],
  );
  return (
    <div className="processing-preview">
      <PreviewCanvas width={view.width} height={view.height} draw={draw} label="Resized image" />
      <Caption>{sizeText(plan.output)}</Caption>
    </div>
  );
}

/** The image with levels applied to its preview pixels. */
export function LevelsPreview({
  image,
  levels,
}: {
  image: HTMLImageElement;
  levels: LevelsParams;
}) {
  const size = naturalSize(image);
  const view = fitPreview(size);
  const { blackPoint, whitePoint, gamma, saturation } = levels;
  const draw = useCallback(
    (ctx: CanvasRenderingContext2D) =>
      drawLevels(ctx, image, { blackPoint, whitePoint, gamma, saturation }, view.scale),
    [image, blackPoint, whitePoint, gamma, saturation, view.scale],
  );
  return (
    <div className="processing-preview">
      <PreviewCanvas
        width={view.width}
        height={view.height}
        draw={draw}
        label="Image with levels"
      />
      <Caption>{sizeText(size)}</Caption>
    </div>
  );
}

/** The new frame: the original centred, the margins filled as the offline run fills them. */
export function ReframePreview({
  image,
  ratio,
  ratioLabel,
}: {
  image: HTMLImageElement;
  ratio: number;
  ratioLabel: string;
}) {
  const plan = useMemo(() => reframePlan(naturalSize(image), ratio), [image, ratio]);
  const view = fitPreview(plan.output);
  const draw = useCallback(
    (ctx: CanvasRenderingContext2D) => drawReframe(ctx, image, plan, view.scale),
    [image, plan, view.scale],
  );
  return (
    <div className="processing-preview">
      <PreviewCanvas width={view.width} height={view.height} draw={draw} label="Reframed image" />
      <Caption>{`${sizeText(plan.output)} (${ratioLabel})`}</Caption>
    </div>
  );
}
