/** Runs `task` when the browser is idle (or after a short delay where it cannot say). */
export function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === "function")
    window.requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 300);
}

/**
 * Runs `task` once the user first presses a key or a pointer on the page, then when idle:
 * for work that only matters once someone is working (a visit that only looks costs nothing).
 */
export function whenEngaged(task: () => void): void {
  const events = ["pointerdown", "keydown"] as const;
  const engaged = () => {
    for (const type of events) window.removeEventListener(type, engaged, true);
    whenIdle(task);
  };
  for (const type of events)
    window.addEventListener(type, engaged, { capture: true, passive: true });
}
