/*
 * Toasts (sonner), loaded with the first message rather than with the editor: most
 * sessions start without one, and the editor's first load stays small (DESIGN §7).
 */
type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | null = null;
let showToaster: (() => void) | null = null;
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Called by the editor's lazy toaster: how to mount it, and when it has mounted. */
export const toaster = {
  register(show: () => void) {
    showToaster = show;
    if (sonner) show();
  },
  mounted: () => markMounted(),
};

/** Sonner's code, fetched once (the first message, or the lazy toaster when idle). */
export const loadSonner = (): Promise<Sonner> => (sonner ??= import("sonner"));

function show(call: (toast: Sonner["toast"]) => void): void {
  const loading = loadSonner();
  showToaster?.();
  void Promise.all([loading, mounted]).then(([module]) => call(module.toast));
}

/** Refusals and confirmations, bottom-right (SPEC §2). */
export const notify = {
  error: (message: string) => show((toast) => toast.error(message)),
  warning: (message: string) => show((toast) => toast.warning(message)),
  info: (message: string) => show((toast) => toast(message)),
  /** A message with one action button; it stays until acted on or dismissed. */
  action: (message: string, label: string, onClick: () => void) =>
    show((toast) =>
      toast(message, { duration: Number.POSITIVE_INFINITY, action: { label, onClick } }),
    ),
};
