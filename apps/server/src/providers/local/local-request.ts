/** What the local provider was asked to run (its "request body"). */
export interface LocalRequest {
  nodeType: string;
  inputs: Record<string, string | string[]>;
  params: Record<string, unknown>;
}

/** Reads the bytes of a media input by its URL. */
export type ReadMedia = (url: string) => Promise<Uint8Array>;
