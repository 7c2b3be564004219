import { currentPath, matchPath, navigate, subscribeToPath } from "../../services/address-bar.ts";
import { useMissingWorkflow } from "./missing-workflow.ts";
import { useWorkspace } from "./store.ts";

/*
 * The address names the open workflow: `/w/:id` in the cloud, `/local/:id` on this device,
 * `/` while it is not saved. Moving to another workflow is a new history entry (back and
 * forward move between workflows); a new id for the same document (its first save, a copy)
 * replaces the entry. Back and forward open what the address names, through the usual open.
 * Loaded with the editor's start-up open, not its first paint.
 */

/** Workflow ids of this device start so (persistence's `locationOf`); the address omits it. */
export const LOCAL_PREFIX = "local-";

/** The address patterns of a workflow: the app's route table sends them to the editor. */
export const WORKFLOW_PATTERNS = { cloud: "/w/:id", local: "/local/:id" } as const;

/** The address of a workflow (null: one not saved yet). */
export function workflowPath(workflowId: string | null): string {
  if (!workflowId) return "/";
  if (workflowId.startsWith(LOCAL_PREFIX))
    return `/local/${encodeURIComponent(workflowId.slice(LOCAL_PREFIX.length))}`;
  return `/w/${encodeURIComponent(workflowId)}`;
}

/** The workflow an address names (`id` null: a new one), or null when it names none. */
export function workflowAt(path: string): { id: string | null } | null {
  if (matchPath("/", path)) return { id: null };
  const cloud = matchPath(WORKFLOW_PATTERNS.cloud, path);
  if (cloud?.id) return { id: cloud.id };
  const local = matchPath(WORKFLOW_PATTERNS.local, path);
  if (local?.id) return { id: `${LOCAL_PREFIX}${local.id}` };
  return null;
}

/** `path` with the query and hash shown now (`?debug=renders` stays through a save). */
const sameQuery = (path: string) => `${path}${window.location.search}${window.location.hash}`;

/** The tab's title: the workflow's name, then the product's. */
export const titleFor = (name: string | null) => `${name ?? "Workflow not found"} — Atelier`;

type Outcome = "opened" | "missing" | "failed";

/** What keeping the address needs from persistence (persistence.ts): its opens. */
export interface AddressCommands {
  open(id: string, options: { reportMissing: boolean }): Promise<Outcome>;
  /** Start-up: the named workflow (none: the last session's work), with the journal. */
  recover(target?: string): Promise<Outcome>;
  newWorkflow(): void;
  /** Asks before unsaved edits are replaced; false: the user stays. */
  leave(): Promise<boolean>;
}

/** Documents put on the canvas so far (the document store's): a new one is a move. */
export interface LoadCount {
  getState(): { loads: number };
}

const missing = () => useMissingWorkflow.getState().id;
const setMissing = (id: string | null) => {
  useMissingWorkflow.setState({ id });
  showTitle();
};
const showTitle = () => {
  document.title = titleFor(missing() === null ? useWorkspace.getState().name : null);
};

/** Start-up: opens what the address names; the not-found page when that cannot be had. */
export async function openAtStart(commands: AddressCommands): Promise<void> {
  const wanted = workflowAt(currentPath());
  if (!wanted) return;
  const outcome = await commands.recover(wanted.id ?? undefined);
  if (outcome === "missing" && wanted.id) setMissing(wanted.id);
}

/**
 * Once `started` (the start-up open) is done, keeps the address and the open workflow in
 * step both ways, and the title on the workflow's name. Returns a stop function.
 */
export function followAddress(
  commands: AddressCommands,
  documents: LoadCount,
  started: Promise<unknown> | null,
): () => void {
  const workspace = useWorkspace;
  const loads = () => documents.getState().loads;
  let stopped = false;
  let stops: (() => void)[] = [];
  let seenLoads = loads();
  /** Opens asked by the address under way: their own workspace changes are not moves. */
  let addressOpens = 0;

  const named = () => workflowAt(currentPath());
  const isShown = (workflowId: string | null) => named()?.id === workflowId;

  /** The workspace moved: a new document is a new entry, a new id for the same one is not. */
  const follow = () => {
    const now = loads();
    const loaded = now !== seenLoads;
    seenLoads = now;
    const { workflowId } = workspace.getState();
    if (isShown(workflowId)) return;
    // The not-found page stays until the user moves to a document.
    if (missing() !== null) {
      if (!loaded) return;
      setMissing(null);
    }
    navigate(loaded ? workflowPath(workflowId) : sameQuery(workflowPath(workflowId)), !loaded);
  };

  /** The address moved (back, forward): open what it names, through the usual open. */
  const openNamed = async (): Promise<void> => {
    const wanted = named();
    if (!wanted || stopped) return;
    if (wanted.id === workspace.getState().workflowId) {
      if (missing() !== null) setMissing(null);
      return;
    }
    // Unsaved edits: the user decides first; staying puts the address back.
    if (!(await commands.leave())) {
      if (named()?.id === wanted.id) navigate(workflowPath(workspace.getState().workflowId), true);
      return;
    }
    if (wanted.id === null) {
      setMissing(null);
      commands.newWorkflow();
      return;
    }
    addressOpens++;
    let outcome: "opened" | "missing" | "failed";
    try {
      outcome = await commands.open(wanted.id, { reportMissing: false });
    } finally {
      addressOpens--;
    }
    seenLoads = loads();
    if (stopped || addressOpens > 0) return;
    // The address moved on meanwhile: open what it names now.
    if (named()?.id !== wanted.id) return openNamed();
    if (outcome === "missing") return setMissing(wanted.id);
    setMissing(null);
    // Not loaded: the address goes back to what the canvas holds.
    if (outcome === "failed") follow();
  };

  void Promise.resolve(started)
    .catch(() => undefined)
    .then(() => {
      if (stopped) return;
      seenLoads = loads();
      const { workflowId } = workspace.getState();
      // "/" reopened the last workflow: the address says which (no new entry).
      if (missing() === null && !isShown(workflowId))
        navigate(sameQuery(workflowPath(workflowId)), true);
      showTitle();
      stops = [
        subscribeToPath(() => void openNamed()),
        workspace.subscribe((state, before) => {
          if (state.name !== before.name) showTitle();
          // Signed in from the not-found page: the workflow may be theirs after all.
          if (state.user !== before.user && missing() !== null) void openNamed();
          if (addressOpens > 0) return;
          if (state.workflowId !== before.workflowId || loads() !== seenLoads) follow();
        }),
      ];
    });
  return () => {
    stopped = true;
    for (const stop of stops) stop();
  };
}
