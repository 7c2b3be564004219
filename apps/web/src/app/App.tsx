import { Suspense, useSyncExternalStore } from "react";
import { currentAddress, subscribeToPath } from "../services/address-bar.ts";
import { matchRoute } from "./routes.ts";

/**
 * The page the address names (routes.ts). The editor's addresses share one page, so moving
 * between workflows keeps it mounted.
 */
export function App() {
  const address = useSyncExternalStore(subscribeToPath, currentAddress);
  const url = new URL(address, "http://address.invalid");
  const { route, params } = matchRoute(url.pathname, undefined, url.search);
  const Page = route.page;
  return (
    <Suspense fallback={<p className="centered">{route.loading ?? "Loading…"}</p>}>
      <Page params={params} />
    </Suspense>
  );
}
