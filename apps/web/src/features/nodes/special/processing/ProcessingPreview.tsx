import { useMemo } from "react";
import type { CanvasNodeData } from "../../../document/types.ts";
import { CropEditor } from "./CropEditor.tsx";
import { LevelsPreview, ReframePreview, ResizePreview } from "./ImagePreviews.tsx";
import { cropParams, levelsParams, reframeParams, resizeParams } from "./preview-params.ts";
import { useSourceImage, useSourceUrl } from "./source-image.ts";

const NOUNS: Record<string, string> = {
  crop: "crop",
  resize: "resize",
  levels: "levels",
  reframe: "new frame",
};

/**
 * Live browser preview of crop, resize, levels and reframe: the wired image drawn with the
 * node's current parameters, by the same geometry the server's run uses. It reads only the
 * source URL from the document, so other nodes' edits never redraw it.
 */
export default function ProcessingPreview({
  id,
  type,
  data,
}: {
  id: string;
  type: string;
  data: CanvasNodeData;
}) {
  const source = useSourceImage(useSourceUrl(id));
  // Parameters change identity only when edited (status updates keep inputValues).
  const values = data.inputValues;
  const params = useMemo(() => {
    const of = { inputValues: values };
    return {
      crop: cropParams(of),
      resize: resizeParams(of),
      levels: levelsParams(of),
      reframe: reframeParams(of),
    };
  }, [values]);

  if (source.status === "none")
    return <p className="muted">Connect an image to preview the {NOUNS[type] ?? type}.</p>;
  if (source.status === "loading") return <p className="muted">Loading the preview…</p>;
  if (source.status === "error")
    return (
      <p className="processing-problem" role="alert">
        {source.message}
      </p>
    );
  const { image } = source;
  switch (type) {
    case "crop":
      return <CropEditor id={id} image={image} crop={params.crop} />;
    case "resize":
      return <ResizePreview image={image} {...params.resize} />;
    case "levels":
      return <LevelsPreview image={image} levels={params.levels} />;
    case "reframe":
      return (
        <ReframePreview
          image={image}
          ratio={params.reframe.ratio}
          ratioLabel={params.reframe.label}
        />
      );
    default:
      return null;
  }
}
