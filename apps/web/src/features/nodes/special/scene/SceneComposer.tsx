import type { CanvasNodeData } from "../../../document/types.ts";

/** The scene composer's 3D editor (being built). */
export default function SceneComposer(_props: { id: string; data: CanvasNodeData }) {
  return <p className="muted">Scene composer</p>;
}
