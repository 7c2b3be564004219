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
  /** Tokens of Alice's share links to `workflow`, by role; `revoked` was an edit link. */
  shares: Record<"view" | "run" | "edit" | "revoked", string>;
  /** The slug of `workflow`'s app (link-only: a run link opens it) and a run of it by Alice. */
  appSlug: string;
  appRun: string;
}

/** A signed-in stranger (Bob) presenting one of Alice's share links (`x-share-token`). */
export const LINK_CALLERS = ["view", "run", "edit", "revoked"] as const;
export type LinkCaller = (typeof LINK_CALLERS)[number];

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
  /** What Bob gets through each of Alice's links to the workflow; unlisted: as `other`. */
  links?: Partial<Record<LinkCaller, number>>;
  probe: (fixture: Fixture) => Probe | Promise<Probe>;
}

/** A short random suffix, so names a probe creates never clash. */
export const unique = () => Math.random().toString(36).slice(2, 10);
