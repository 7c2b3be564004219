import type { TestClient } from "./client.ts";

export interface Fixture {
  alice: TestClient;
  folder: string;
  folderToDelete: string;
  workflow: string;
  workflowToDelete: string;
  workflowToCopy: string;
  media: string;
  mediaToDelete: string;
  mediaPath: string;
  job: string;
  jobToCancel: string;
  run: string;
  /** Alice's API token the owner's DELETE revokes. */
  tokenToRevoke: string;
}

export interface Probe {
  path: string;
  json?: unknown;
  /** A multipart body (built afresh for every request). */
  form?: () => Promise<FormData>;
  /** An event stream: only its status and headers are read. */
  stream?: boolean;
}

export interface Entry {
  /** Changes state: the origin check applies (every method but GET, HEAD and OPTIONS). */
  writes: boolean;
  /** Why the origin check does not apply to this state change. */
  exempt?: string;
  /** What each caller gets; the owner's request names Alice's resources throughout. */
  owner: number;
  other: number;
  anonymous: number;
  probe: (fixture: Fixture) => Probe | Promise<Probe>;
}

/** A short random suffix, so names a probe creates never clash. */
export const unique = () => Math.random().toString(36).slice(2, 10);
