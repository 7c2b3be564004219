import {
  type CropFractions,
  cropFractions,
  cropRect,
  type PixelRect,
  type PixelSize,
} from "@atelier/core";
import {
  type KeyboardEvent,
  type PointerEvent,
  useCallback,
  useMemo,
  useRef,
  useState,
} from "react";
import { useDocumentStore } from "../../../document/context.tsx";
import {
  CORNER_NAMES,
  CORNERS,
  type CropHandle,
  dragCrop,
  nudgeCrop,
  sameRect,
} from "./crop-drag.ts";
import { drawWhole, fitPreview, naturalSize } from "./draw.ts";
import { PreviewCanvas } from "./PreviewCanvas.tsx";

interface Drag {
  handle: CropHandle;
  pointer: number;
  x: number;
  y: number;
  start: PixelRect;
  /** Screen pixels per image pixel when the drag began (canvas zoom included). */
  scale: number;
}

/**
 * The crop box over the source image: drag it or its corners, or focus one and use the
 * arrow keys (Shift: 10 px). A drag shows its size live and is written to the node's
 * parameters once, on release, so it is one undo step.
 */
export function CropEditor({
  id,
  image,
  crop,
}: {
  id: string;
  image: HTMLImageElement;
  crop: CropFractions;
}) {
  const store = useDocumentStore();
  const size: PixelSize = naturalSize(image);
  const { width: W, height: H } = size;
  const view = fitPreview(size);
  const committed = useMemo(() => cropRect({ width: W, height: H }, crop), [W, H, crop]);
  const [draft, setDraft] = useState<PixelRect | null>(null);
  const drag = useRef<Drag | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const rect = draft ?? committed;

  const commit = (next: PixelRect) => {
    if (sameRect(next, committed)) return;
    const node = store.getState().nodes.find((candidate) => candidate.id === id);
    if (!node) return;
    const f = cropFractions(next, size);
    store.getState().updateNodeData(id, {
      inputValues: {
        ...node.data.inputValues,
        left: { value: f.left },
        top: { value: f.top },
        width: { value: f.width },
        height: { value: f.height },
      },
    });
  };

  const moved = (event: PointerEvent, d: Drag) =>
    dragCrop(d.start, d.handle, (event.clientX - d.x) / d.scale, (event.clientY - d.y) / d.scale, {
      width: W,
      height: H,
    });

  const handlers = (handle: CropHandle) => ({
    onPointerDown(event: PointerEvent<HTMLElement>) {
      if (event.button !== 0) return;
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.focus();
      event.currentTarget.setPointerCapture?.(event.pointerId);
      const box = stage.current?.getBoundingClientRect();
      const scale = box && box.width > 0 ? box.width / W : view.scale;
      const { clientX: x, clientY: y, pointerId: pointer } = event;
      drag.current = { handle, pointer, x, y, start: committed, scale };
    },
    onPointerMove(event: PointerEvent) {
      const d = drag.current;
      if (d && d.pointer === event.pointerId) setDraft(moved(event, d));
    },
    onPointerUp(event: PointerEvent) {
      const d = drag.current;
      if (!d || d.pointer !== event.pointerId) return;
      drag.current = null;
      setDraft(null);
      commit(moved(event, d));
    },
    onPointerCancel() {
      drag.current = null;
      setDraft(null);
    },
    onKeyDown(event: KeyboardEvent) {
      const next = nudgeCrop(committed, handle, event.key, event.shiftKey, { width: W, height: H });
      if (!next) return;
      // Arrow keys would otherwise move the selected node.
      event.preventDefault();
      event.stopPropagation();
      commit(next);
    },
  });

  const draw = useCallback(
    (ctx: CanvasRenderingContext2D) => drawWhole(ctx, image, view.scale),
    [image, view.scale],
  );
  const s = view.scale;
  const at = (x: number, y: number) => ({ left: x * s, top: y * s });
  const corner = {
    nw: at(rect.x, rect.y),
    ne: at(rect.x + rect.width, rect.y),
    sw: at(rect.x, rect.y + rect.height),
    se: at(rect.x + rect.width, rect.y + rect.height),
  };
  const sizeText = `${rect.width} × ${rect.height} px`;
  return (
    <div className="crop-editor">
      <div
        className="crop-stage nokey"
        ref={stage}
        style={{ width: view.width, height: view.height }}
      >
        <div className="crop-clip">
          <PreviewCanvas width={view.width} height={view.height} draw={draw} label="Source image" />
          <div
            className="crop-shade"
            style={{ ...at(rect.x, rect.y), width: rect.width * s, height: rect.height * s }}
          />
        </div>
        <button
          type="button"
          className="crop-box nokey"
          style={{ ...at(rect.x, rect.y), width: rect.width * s, height: rect.height * s }}
          aria-label={`Crop area, ${sizeText} from ${rect.x}, ${rect.y}: drag or use the arrow keys to move it (Shift: 10 px)`}
          {...handlers("move")}
        />
        {CORNERS.map((name) => (
          <button
            key={name}
            type="button"
            className={`crop-handle crop-handle-${name} nokey`}
            style={corner[name]}
            aria-label={`Crop ${CORNER_NAMES[name]} corner: drag or use the arrow keys (Shift: 10 px)`}
            {...handlers(name)}
          />
        ))}
      </div>
      <p className="processing-caption">
        <output aria-live="polite" aria-label="Crop size">
          {sizeText}
        </output>
        <span className="muted"> of {`${W} × ${H}`}</span>
      </p>
    </div>
  );
}
