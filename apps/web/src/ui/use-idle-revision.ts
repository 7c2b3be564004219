import { useEffect, useRef, useState } from "react";
import { whenIdle } from "../services/when-idle.ts";

/**
 * A count of the changes of `value`, raised when the browser is next idle after one: lists
 * that follow an open or a save refresh after the canvas has drawn, not in the open's own
 * task (at most 2 s later). A count, not the value itself, so a value that changes and
 * changes back before the browser is idle (saved, then idle again) still refreshes them.
 */
export function useIdleRevision(value: unknown): number {
  const [revision, setRevision] = useState(0);
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of the value is the trigger
  useEffect(() => {
    // The first value is what the lists were first loaded for.
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    let live = true;
    whenIdle(() => {
      if (live) setRevision((count) => count + 1);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return revision;
}
