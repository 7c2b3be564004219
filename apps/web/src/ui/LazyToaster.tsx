import { lazy, Suspense, useEffect, useState } from "react";
import { whenIdle } from "../services/when-idle.ts";
import { loadSonner, toaster } from "./notify.ts";

const Toaster = lazy(async () => {
  const { Toaster: SonnerToaster } = await loadSonner();
  return {
    default: function MountedToaster() {
      useEffect(() => toaster.mounted(), []);
      return <SonnerToaster position="bottom-right" theme="dark" richColors closeButton />;
    },
  };
});

/** The toast area, mounted when the browser is idle after the first paint, or with the first message. */
export function LazyToaster() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    toaster.register(() => setWanted(true));
    whenIdle(() => setWanted(true));
  }, []);
  return wanted ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}
