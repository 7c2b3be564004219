/// <reference lib="webworker" />
import {
  chunkWorkflow,
  type SavedWorkflow,
  serializeWorkflow,
  type WorkflowDocument,
} from "@atelier/core";
import { expose } from "comlink";

/** Heavy serialization off the main thread: the document is posted as JSON text (cheap to send). */
const api = {
  serialize(documentJson: string): string {
    return JSON.stringify(serializeWorkflow(JSON.parse(documentJson) as WorkflowDocument));
  },
  chunk(savedJson: string) {
    return chunkWorkflow(JSON.parse(savedJson) as SavedWorkflow);
  },
  clone(json: string): unknown {
    return JSON.parse(json);
  },
};

export type SerializeWorkerApi = typeof api;
expose(api);
