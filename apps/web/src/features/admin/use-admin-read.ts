import { useCallback, useEffect, useState } from "react";
import { adminFailure } from "./admin-actions.ts";

/** One admin read: its answer (null until it comes), the error in words, and a reload. */
export function useAdminRead<T>(read: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    read().then(
      (answer) => {
        setData(answer);
        setError(null);
      },
      (failure) => setError(adminFailure(failure)),
    );
  }, [read]);
  useEffect(reload, [reload]);
  return { data, error, setError, reload };
}
