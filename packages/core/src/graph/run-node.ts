/**
 * The part of a node a run reads: its type, parameters (`inputValues`), results and label.
 * The editor's nodes and a stored workflow's nodes both fit it.
 */
export interface RunNodeData {
  label?: string | undefined;
  inputValues?: Record<string, { value?: unknown } | undefined> | undefined;
  outputs?: Record<string, unknown> | undefined;
  outputValues?: Record<string, { value?: unknown } | undefined> | undefined;
  [key: string]: unknown;
}

export interface RunNode {
  id: string;
  type?: string | undefined;
  data: RunNodeData;
}
