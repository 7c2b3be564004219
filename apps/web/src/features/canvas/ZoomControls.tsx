import { Panel, type ReactFlowState, useReactFlow, useStore } from "@xyflow/react";

const atMin = (state: ReactFlowState) => state.transform[2] <= state.minZoom;
const atMax = (state: ReactFlowState) => state.transform[2] >= state.maxZoom;

/**
 * Zoom in, zoom out and fit view, bottom-left (UX: "minimap and zoom controls bottom-left").
 * React Flow's <Controls> adds a lock toggle and icon set the canvas does not use, all in the
 * first load; these three buttons keep its class names, so its styles and themes apply.
 */
export function ZoomControls() {
  const flow = useReactFlow();
  const minZoomReached = useStore(atMin);
  const maxZoomReached = useStore(atMax);
  return (
    <Panel position="bottom-left" className="react-flow__controls vertical" aria-label="Zoom">
      <button
        type="button"
        className="react-flow__controls-button react-flow__controls-zoomin"
        title="Zoom In"
        aria-label="Zoom In"
        disabled={maxZoomReached}
        onClick={() => void flow.zoomIn()}
      >
        <Icon path="M8 2v12M2 8h12" />
      </button>
      <button
        type="button"
        className="react-flow__controls-button react-flow__controls-zoomout"
        title="Zoom Out"
        aria-label="Zoom Out"
        disabled={minZoomReached}
        onClick={() => void flow.zoomOut()}
      >
        <Icon path="M2 8h12" />
      </button>
      <button
        type="button"
        className="react-flow__controls-button react-flow__controls-fitview"
        title="Fit View"
        aria-label="Fit View"
        onClick={() => void flow.fitView()}
      >
        <Icon path="M2 6V2h4m4 0h4v4m0 4v4h-4m-4 0H2v-4" />
      </button>
    </Panel>
  );
}

function Icon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true">
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
