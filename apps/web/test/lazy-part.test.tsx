import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, expect, it, vi } from "vitest";
import { lazyPart, PART_FAILED } from "../src/ui/lazy-part.tsx";
import { notify } from "../src/ui/notify.ts";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

it("leaves a part that cannot be fetched out with a message, and fetches it again next time", async () => {
  const error = vi.spyOn(notify, "error").mockImplementation(() => undefined);
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  let attempts = 0;
  const Part = lazyPart(async () => {
    attempts++;
    if (attempts === 1) throw new TypeError("Failed to fetch dynamically imported module");
    return ({ label }: { label: string }) => <p>{label}</p>;
  });
  const first = render(
    <main>
      <h1>Editor</h1>
      <Part label="Search" />
    </main>,
  );
  await vi.waitFor(() => expect(error).toHaveBeenCalledWith(PART_FAILED));
  expect(screen.getByRole("heading", { name: "Editor" })).toBeTruthy();
  expect(screen.queryByText("Search")).toBeNull();
  first.unmount();
  render(<Part label="Search" />);
  expect(await screen.findByText("Search")).toBeTruthy();
  expect(attempts).toBe(2);
});
