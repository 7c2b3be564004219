import { Component, type ComponentType, lazy, type ReactNode, Suspense } from "react";
import { notify } from "./notify.ts";

export const PART_FAILED =
  "This part of the editor could not be loaded. Check your connection and try again.";

/**
 * A part of the editor loaded on first use (DESIGN §7). Should its code not arrive (offline
 * before it was prefetched, or a new deploy), the editor stays up: the part is left out with
 * a message, and its next use fetches it again.
 */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>) {
  const fetchPart = () => load().then((part) => ({ default: part }));
  let Loaded = lazy(fetchPart);
  class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
    override state = { failed: false };
    static getDerivedStateFromError() {
      return { failed: true };
    }
    override componentDidCatch() {
      Loaded = lazy(fetchPart);
      notify.error(PART_FAILED);
    }
    override render() {
      return this.state.failed ? null : this.props.children;
    }
  }
  return function Part(props: P) {
    return (
      <Boundary>
        <Suspense fallback={null}>
          <Loaded {...props} />
        </Suspense>
      </Boundary>
    );
  };
}
