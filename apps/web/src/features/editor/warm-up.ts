import { whenIdle } from "../../services/when-idle.ts";

/**
 * Code the editor leaves out of its first load (DESIGN §7) but must have offline: opening,
 * saving and journaling a workflow, backups of failed saves, uploads, toasts, the node search,
 * the shortcut sheet, the selection toolbar, the empty canvas's hints, the keyboard's Connect
 * list, special node sections and node descriptions. It is fetched at the editor's first use
 * (warm-up-trigger.ts), so a connection lost later cannot take it away.
 */
export const OFFLINE_CHUNKS = [
  () => import("sonner"),
  () => import("../persistence/serializer.ts"),
  () => import("../persistence/exit-journal.ts"),
  () => import("../persistence/journal.ts"),
  () => import("../persistence/read-graph.ts"),
  () => import("../persistence/save.ts"),
  () => import("../persistence/open-workflow.ts"),
  () => import("../uploads/drop-upload.ts"),
  () => import("../persistence/backups.ts"),
  () => import("../palette/NodeSearch.tsx"),
  () => import("../canvas/ShortcutSheet.tsx"),
  () => import("../canvas/SelectionActions.tsx"),
  () => import("../canvas/EmptyCanvas.tsx"),
  () => import("../keyboard/KeyboardWiring.tsx"),
  () => import("../keyboard/ConnectDialog.tsx"),
  () => import("../nodes/special/SpecialContent.tsx"),
  () => import("@atelier/core/descriptions"),
];

/** Called at the editor's first use (or when idle where no service worker keeps chunks). */
export function warmUp(): void {
  for (const load of OFFLINE_CHUNKS) void load().catch(() => {});
  // The checks of an open, compiled before the first open needs them.
  void import("../persistence/read-graph.ts")
    .then(({ warmUpReading }) => whenIdle(warmUpReading))
    .catch(() => {});
}
