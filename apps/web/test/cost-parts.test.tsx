import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";

// The estimates' chunk, counted: the top bar must not fetch it before there is a total.
const chunk = vi.hoisted(() => ({ loads: 0 }));
vi.mock("../src/features/costs/CostParts.tsx", () => {
  chunk.loads++;
  return { CostPart: () => <span>run total</span> };
});

const { TopBar } = await import("../src/features/editor/TopBar.tsx");
const { useEstimates } = await import("../src/features/costs/estimates-store.ts");
const { DocumentProvider } = await import("../src/features/document/context.tsx");
const { createDocumentStore } = await import("../src/features/document/store.ts");
const { PersistenceProvider } = await import("../src/features/persistence/context.tsx");
const { RunnerProvider } = await import("../src/features/runs/context.tsx");

afterEach(cleanup);

const none = () => undefined;

it("fetches Run all's estimate only once there is a total to show", async () => {
  const runner = { isRunnable: () => false } as never;
  render(
    <DocumentProvider store={createDocumentStore()}>
      <PersistenceProvider value={{} as never}>
        <RunnerProvider value={runner}>
          <TopBar
            onApiTokens={none}
            onRunHistory={none}
            onHistory={none}
            onPreferences={none}
            onShortcuts={none}
            onSignIn={none}
            onShare={none}
          />
        </RunnerProvider>
      </PersistenceProvider>
    </DocumentProvider>,
  );
  // An empty canvas has no total (or a zero one): RunEstimate would show nothing.
  act(() => useEstimates.setState({ total: { usd: 0, unknown: 0 } }));
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(chunk.loads).toBe(0);
  expect(screen.getByRole("button", { name: "Run all" })).toBeTruthy();

  act(() => useEstimates.setState({ total: { usd: 0, unknown: 1 } }));
  expect(await screen.findByText("run total")).toBeTruthy();
  expect(chunk.loads).toBe(1);
});
