/**
 * Crash-test hook: when ATELIER_FAULT_POINT names this point, the process dies here at once
 * (SIGKILL, as a power cut would). Used only by the crash tests; a no-op otherwise.
 */
export function faultPoint(name: string): void {
  if (process.env.ATELIER_FAULT_POINT === name) process.kill(process.pid, "SIGKILL");
}
