/** Runs `task` when the browser is idle (or after a short delay where it cannot say). */
export function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === "function")
    window.requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 300);
}
