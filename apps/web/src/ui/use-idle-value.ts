import { useEffect, useState } from "react";
import { whenIdle } from "../services/when-idle.ts";

/**
 * `value` as it was when the browser was last idle: lists that follow an open or a save
 * refresh after the canvas has drawn, not in the open's own task (at most 2 s later).
 */
export function useIdleValue<T>(value: T): T {
  const [idle, setIdle] = useState(value);
  useEffect(() => {
    let live = true;
    whenIdle(() => {
      if (live) setIdle(value);
    });
    return () => {
      live = false;
    };
  }, [value]);
  return idle;
}
