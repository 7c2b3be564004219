import type { Provenance } from "@atelier/core";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MediaPreview } from "../src/features/nodes/viewers/MediaPreview.tsx";
import { isOfflinePreview, OfflineBadge } from "../src/features/nodes/viewers/OfflineBadge.tsx";

// The Providers dialog is the link's target; its own behaviour is tested elsewhere.
vi.mock("../src/features/costs/ProvidersDialog.tsx", () => ({
  ProvidersDialog: ({ onClose }: { onClose(): void }) => (
    <div role="dialog" aria-label="Providers">
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const provenance = (patch: Partial<Provenance>): Provenance => ({
  model: "video",
  provider: "local",
  endpoint: "local/video",
  parameters: { duration: "8s", resolution: "720p" },
  seed: 1,
  prompt: "<img src=x onerror=alert(1)> a fox",
  runId: null,
  workflowId: null,
  version: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  cost: null,
  ...patch,
});

/** Serves the sidecar provenance of `/api/media/file/…` results; counts the reads. */
function serveSidecar(record: Provenance | null) {
  const fetch = vi.fn(async (url: string) =>
    record && String(url).endsWith(".atelier.json")
      ? new Response(JSON.stringify(record), { status: 200 })
      : new Response("", { status: 404 }),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

let file = 0;
/** A fresh stored-result address per test (answers are remembered by address). */
const videoOutputs = () => ({ videoUrl: `/api/media/file/u/w/clip-${++file}.webm` });

describe("the Offline preview badge", () => {
  it("says which provenance is an offline stand-in", () => {
    expect(isOfflinePreview(provenance({}))).toBe(true);
    expect(isOfflinePreview(provenance({ provider: "fal", endpoint: "fal-ai/veo3" }))).toBe(false);
    expect(
      isOfflinePreview(
        provenance({ provider: null, endpoint: "local/flux-pro", model: "flux-pro" }),
      ),
    ).toBe(true);
    // The server's own work, not a stand-in: crop (run kind local) and ffmpeg merges.
    expect(isOfflinePreview(provenance({ model: "crop", endpoint: "local/crop" }))).toBe(false);
    expect(isOfflinePreview(provenance({ model: "merge-videos" }))).toBe(false);
    expect(isOfflinePreview(null)).toBe(false);
  });

  it("shows on a result the local provider made, with a link that opens the Providers dialog", async () => {
    const fetch = serveSidecar(provenance({}));
    const outputs = videoOutputs();
    render(<MediaPreview outputs={outputs} />);
    const badge = await screen.findByRole("note");
    expect(badge.textContent).toBe("Offline preview" + "Add a provider key");
    expect(badge.getAttribute("title")).toMatch(/local provider/);
    // Text only: nothing of the provenance (a hostile prompt) is rendered.
    expect(badge.querySelector("img")).toBeNull();
    expect(fetch).toHaveBeenCalledWith(
      `${globalThis.location.origin}${outputs.videoUrl}.atelier.json`,
      { credentials: "omit" },
    );

    fireEvent.click(screen.getByRole("button", { name: "Add a provider key" }));
    const dialog = await screen.findByRole("dialog", { name: "Providers" });
    // In the page, not inside the node (whose drag and keys would take its events).
    expect(badge.contains(dialog)).toBe(false);
    expect(dialog.closest(".nokey")).not.toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("stays away from results a provider made, and from files without provenance", async () => {
    serveSidecar(provenance({ provider: "fal", endpoint: "fal-ai/veo3" }));
    render(<OfflineBadge outputs={videoOutputs()} />);
    serveSidecar(null);
    render(<OfflineBadge outputs={videoOutputs()} />);
    // Uploads and other sites' files are not looked up at all.
    const none = serveSidecar(provenance({}));
    render(<OfflineBadge outputs={{ videoUrl: "https://cdn.example.com/clip.webm" }} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole("note")).toBeNull();
    expect(none).not.toHaveBeenCalled();
  });

  it("reads a result's provenance once however often its node draws it", async () => {
    const fetch = serveSidecar(provenance({}));
    const outputs = videoOutputs();
    const first = render(<OfflineBadge outputs={outputs} />);
    await screen.findByRole("note");
    first.unmount();
    render(<OfflineBadge outputs={{ ...outputs }} />);
    await screen.findByRole("note");
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
