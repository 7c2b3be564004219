import { Suspense, useSyncExternalStore } from "react";
import { currentPath, subscribeToPath } from "../services/address-bar.ts";
import { matchRoute } from "./routes.ts";

/**
 * The page the address names (routes.ts). The editor's addresses share one page, so moving
 * between workflows keeps it mounted.
 */
export function App() {
  const path = useSyncExternalStore(subscribeToPath, currentPath);
  const { route, params } = matchRoute(path);
  const Page = route.page;
  return (
    <Suspense fallback={<p className="centered">{route.loading ?? "Loading…"}</p>}>
      <Page params={params} />
    </Suspense>
  );
}
