import type { CanvasNodeData } from "../../../document/types.ts";

/** Live browser preview of crop/resize/levels/reframe (being built). */
export default function ProcessingPreview(_props: {
  id: string;
  type: string;
  data: CanvasNodeData;
}) {
  return null;
}
