import { getNodeDefinition, type NodeDefinition } from "@atelier/core";
import { Handle, type NodeProps, Position, type ReactFlowState, useStoreApi } from "@xyflow/react";
import {
  type Dispatch,
  lazy,
  memo,
  type SetStateAction,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useState,
} from "react";
import type { StoreApi } from "zustand";
import { lazyPart } from "../../ui/lazy-part.tsx";
import { useDocumentStore } from "../document/context.tsx";
import { PORT_COLORS } from "../document/factory.ts";
import type { CanvasNode } from "../document/types.ts";
import { usePreferences } from "../preferences/store.ts";
import type { HistoryEntry } from "../runs/ResultHistory.tsx";
import { RunControls } from "../runs/RunControls.tsx";
import { StatusPill } from "../runs/StatusPill.tsx";
import { ZoomedOut } from "./detail-level.ts";
import { NodeTitle } from "./NodeTitle.tsx";
import { ParamField } from "./ParamField.tsx";
import { PortMarkers } from "./PortMarkers.tsx";
import { countRender } from "./render-counts.ts";
import { type FieldSpec, fieldsOf } from "./schema-fields.ts";
import { hasSpecialContent, showsOwnResult } from "./special/special-types.ts";
import { useWiresInto } from "./use-wires-into.ts";
import { wireOf } from "./wired-value.ts";

// Outputs, their viewers and the URL allow-list load with the first node that has a result:
// an empty canvas's first paint does not carry them (bench F1).
const MediaPreview = lazy(() =>
  import("./viewers/MediaPreview.tsx").then((module) => ({ default: module.MediaPreview })),
);

// "How it was made" (provenance read from the result's file) loads with the first result too.
const ProvenancePanel = lazy(() => import("../runs/ProvenancePanel.tsx"));
// Galleries, notes, previews, references: loaded with the first node that has one.
const SpecialContent = lazyPart(() =>
  import("./special/SpecialContent.tsx").then((module) => module.SpecialContent),
);
// Stepping through results needs two of them.
const ResultHistory = lazy(() =>
  import("../runs/ResultHistory.tsx").then((module) => ({ default: module.ResultHistory })),
);

// The upload bar: loaded with the first file dropped on a node.
const UploadProgress = lazyPart(() =>
  import("./UploadProgress.tsx").then((module) => module.UploadProgress),
);

// What a wire brings into a field: loaded with the first wired field, not with the editor.
const WiredPreview = lazyPart(() =>
  import("./WiredPreview.tsx").then((module) => module.WiredPreview),
);

/**
 * Every catalogue node: a full card, or a plain box when zoomed out below the detail
 * threshold (provided by the canvas as ZoomedOut). Memoized; it re-renders only when its
 * own node object or the zoom's side of the threshold changes (a card also follows the
 * wires into it). The box holds no more than it draws: thousands of them are mounted at
 * once when zoomed out, and every hook of the card held per box was heap (bench C5).
 */
export const GenericNode = memo(function GenericNode({
  id,
  type,
  data,
  selected,
}: NodeProps<CanvasNode>) {
  countRender(id);
  const simple = useContext(ZoomedOut);
  const documents = useDocumentStore();
  const flow = useStoreApi();
  // Drawn: React Flow measures it now, so its size hint (document/size-hints.ts) can go.
  useEffect(() => documents.getState().drawn(id), [documents, id]);
  // Here, not in the card: zooming out and back in keeps the advanced fields open.
  const [advanced, setAdvanced] = useState(false);
  const definition = getNodeDefinition(type);
  if (!definition) return <div className="node node-unknown">Unknown node type: {type}</div>;
  if (!simple)
    return (
      <NodeCard
        id={id}
        type={type}
        definition={definition}
        data={data}
        selected={selected}
        advanced={advanced}
        setAdvanced={setAdvanced}
      />
    );
  // The box takes the size of the card it stands for (as last measured, or its size hint),
  // read once, not subscribed to. A fixed 120 px box made Fit view, which fits the sizes
  // measured, fit boxes that became taller cards at the fitted zoom: they overshot the view.
  const card = flow.getState().nodeLookup.get(id)?.measured;
  return (
    <div
      className={`node node-simple status-${data.status ?? "idle"}${selected ? " selected" : ""}`}
      data-testid={`node-${id}`}
      style={card?.width && card.height ? { width: card.width, height: card.height } : undefined}
    >
      <strong>{data.label ?? definition.displayName}</strong>
      <PortMarkers type={type} />
    </div>
  );
});

interface CardProps extends Pick<NodeProps<CanvasNode>, "id" | "type" | "data" | "selected"> {
  definition: NodeDefinition;
  advanced: boolean;
  setAdvanced: Dispatch<SetStateAction<boolean>>;
}

/** A node's full card: header, typed handles, a parameter form from its schema, status, output. */
function NodeCard({ id, type, definition, data, selected, advanced, setAdvanced }: CardProps) {
  const showLabels = usePreferences((state) => state.showNodeLabels);
  // Actions are read from the store, not subscribed to: a subscription per node would run
  // thousands of selectors on every document change (every drag move).
  const documents = useDocumentStore();
  const flow = useStoreApi();
  const wires = useWiresInto(id, definition.inputs[0]?.id);
  const onChange = useCallback(
    (name: string, value: unknown) => documents.getState().setParam(id, name, value),
    [id, documents],
  );
  const status = data.status ?? "idle";

  const fields = fieldsOf(type);
  const essentials = fields.filter((field) => field.essential);
  const rest = fields.filter((field) => !field.essential);
  // A field a wire feeds shows what arrives, not an editor whose value the run would ignore;
  // unplugged, the editor is back with the value typed before.
  const fieldOf = (field: FieldSpec) => {
    const wire = wireOf(wires, field.name);
    const port = wire ? definition.inputs.find((input) => input.id === field.name) : undefined;
    if (wire && port)
      return (
        <WiredPreview
          key={field.name}
          flow={flow as unknown as StoreApi<ReactFlowState>}
          label={field.label}
          source={wire[0]}
          handle={wire[1]}
          type={port.type}
        />
      );
    return (
      <ParamField
        key={field.name}
        field={field}
        value={data.inputValues?.[field.name]?.value}
        onChange={onChange}
      />
    );
  };

  return (
    <div
      className={`node category-${definition.category} status-${status}${selected ? " selected" : ""}`}
      data-testid={`node-${id}`}
    >
      <header className="node-header">
        <NodeTitle
          id={id}
          label={data.label}
          typeName={definition.displayName}
          showLabel={showLabels}
        />
        {/* Notes, viewers and references never run: "Idle" would only be noise on them. */}
        {definition.run.kind !== "none" || status !== "idle" ? (
          <StatusPill id={id} status={status} />
        ) : null}
      </header>
      <RunControls id={id} type={type} />
      {typeof data.uploadProgress === "number" ? (
        <UploadProgress progress={data.uploadProgress} />
      ) : null}
      {definition.lifecycle ? <p className="node-warning">{definition.lifecycle.message}</p> : null}
      {data.runNote ? <p className="node-note">{String(data.runNote)}</p> : null}
      {status === "error" && data.error ? (
        <p className="node-error" role="alert">
          {data.error}
        </p>
      ) : null}
      <div className="node-ports">
        <ul className="ports inputs">
          {definition.inputs.map((port) => (
            <li key={port.id} className="port" data-side="in" data-port={port.id}>
              <Handle
                type="target"
                position={Position.Left}
                id={port.id}
                className="handle"
                style={{ background: PORT_COLORS[port.type] }}
                title={`${port.label} (${port.type}${port.multiple ? `, up to ${port.max ?? "many"}` : ""})`}
              />
              {port.label}
              {port.required ? (
                <abbr className="required" title="required">
                  *
                </abbr>
              ) : null}
            </li>
          ))}
        </ul>
        <ul className="ports outputs">
          {definition.outputs.map((port) => (
            <li key={port.id} className="port" data-side="out" data-port={port.id}>
              {port.label}
              <Handle
                type="source"
                position={Position.Right}
                id={port.id}
                className="handle"
                style={{ background: PORT_COLORS[port.type] }}
                title={`${port.label} (${port.type})`}
              />
            </li>
          ))}
        </ul>
      </div>
      {fields.length > 0 ? (
        <div className="node-params">
          {essentials.map((field) => fieldOf(field))}
          {rest.length > 0 ? (
            <>
              <button
                type="button"
                className="link nodrag"
                onClick={() => setAdvanced((open) => !open)}
                aria-expanded={advanced}
              >
                {advanced ? "Hide advanced" : `Advanced (${rest.length})`}
              </button>
              {advanced ? rest.map((field) => fieldOf(field)) : null}
            </>
          ) : null}
        </div>
      ) : null}
      {hasSpecialContent(type) ? <SpecialContent id={id} type={type} data={data} /> : null}
      {showsOwnResult(type) ? null : (
        // Not a named region: one landmark per node would flood the landmark list.
        <div className="node-output">
          {data.outputs && Object.keys(data.outputs).length > 0 ? (
            <Suspense fallback={null}>
              <MediaPreview outputs={data.outputs} />
            </Suspense>
          ) : (
            <span className="muted">No output yet</span>
          )}
          {definition.run.kind !== "none" && data.outputs && status !== "processing" ? (
            <Suspense fallback={null}>
              <ProvenancePanel
                key={JSON.stringify(data.outputs)}
                id={id}
                type={type}
                outputs={data.outputs}
              />
            </Suspense>
          ) : null}
          {Array.isArray(data.history) && data.history.length > 1 ? (
            <Suspense fallback={null}>
              <ResultHistory
                id={id}
                history={data.history as HistoryEntry[]}
                outputs={data.outputs}
              />
            </Suspense>
          ) : null}
        </div>
      )}
    </div>
  );
}
