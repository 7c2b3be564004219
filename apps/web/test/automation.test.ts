import { AUTOMATION_MESSAGES, automationItems, parseAutomationItemId } from "@atelier/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AutomationData } from "../src/features/runs/automation.ts";
import { createRunner } from "../src/features/runs/runner.ts";
import { createRunsStore } from "../src/features/runs/runs-store.ts";
import { wire } from "./helpers/graph.ts";
import {
  fakeApi,
  job,
  lastSource,
  node,
  openEvents,
  setupRunner,
  values,
} from "./helpers/runner.ts";

/** A fake API whose every generate call gets its own request id: r0, r1, … */
function countingApi() {
  let calls = 0;
  const generate = vi.fn(async (_type: string, _body: { nodeId: string; inputs: object }) => ({
    requestId: `r${calls++}`,
    endpoint: "fal-ai/flux-pro/v1.1",
    status: "IN_QUEUE" as const,
  }));
  const cancelJob = vi.fn(async (requestId: string) =>
    job({ requestId, nodeId: `auto~${requestId.slice(1)}`, status: "CANCELLED" }),
  );
  return { ...fakeApi(), generate, cancelJob };
}

/** text (three lines) → image automation → FLUX prompt. */
function linesIntoFlux(text = "a red fox\na blue whale\n\na green owl\n") {
  const api = countingApi();
  const setup = setupRunner(
    api,
    [
      node("t", "text", { inputValues: values({ text }) }),
      node("auto", "image-automation", { inputValues: values({ splitBy: "line", prompt: "" }) }),
      node("flux", "flux-pro", { inputValues: values({ prompt: "" }) }),
    ],
    [wire("t", "text", "auto", "media"), wire("auto", "items", "flux", "prompt")],
  );
  const runs = () => (setup.data("auto")?.automation as AutomationData | undefined)?.runs ?? [];
  return { ...setup, api, runs };
}

const done = (index: number, patch = {}) =>
  job({
    requestId: `r${index}`,
    nodeId: `auto~${index}`,
    status: "COMPLETED",
    outputs: { imageUrl: `/api/media/file/${index}.png` },
    outputValues: { image: { value: `/api/media/file/${index}.png` } },
    ...patch,
  });

describe("image automation", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("splits items by line (trimmed, blanks dropped) or keeps each item whole", () => {
    expect(automationItems([" a \r\nb\n\n", "c"], "line")).toEqual(["a", "b", "c"]);
    expect(automationItems(["one\ntwo", " x "], "item")).toEqual(["one\ntwo", "x"]);
    expect(parseAutomationItemId("image-automation-k1-2~7")).toEqual({
      automationId: "image-automation-k1-2",
      index: 7,
    });
    expect(parseAutomationItemId("flux-pro-k1-2")).toBeNull();
  });

  it("runs the wired generator once per line, with per-item status and a combined result", async () => {
    const { runner, api, data, runs } = linesIntoFlux();
    await runner.run("auto");
    expect(api.generate).toHaveBeenCalledTimes(3);
    expect(
      api.generate.mock.calls.map(([type, body]) => [
        type,
        body.nodeId,
        (body.inputs as { prompt?: string }).prompt,
      ]),
    ).toEqual([
      ["flux-pro", "auto~0", "a red fox"],
      ["flux-pro", "auto~1", "a blue whale"],
      ["flux-pro", "auto~2", "a green owl"],
    ]);
    expect(data("auto")).toMatchObject({ status: "processing" });
    expect(data("flux")).toMatchObject({ status: "processing" });
    expect(runs().map((run) => run.status)).toEqual(["running", "running", "running"]);

    const source = lastSource();
    source.emit("job", done(1));
    expect(runs().map((run) => run.status)).toEqual(["running", "complete", "running"]);
    expect(data("auto")?.status).toBe("processing");
    source.emit("job", done(0));
    source.emit("job", done(2));
    const results = [0, 1, 2].map((index) => `/api/media/file/${index}.png`);
    expect(runs().map((run) => run.result)).toEqual(results);
    expect(data("auto")).toMatchObject({
      status: "complete",
      error: null,
      outputs: { items: results },
      outputValues: { items: { value: results } },
      runNote: "3 of 3 items done",
    });
    // Each item's result is in the generator's history, in the order they ended.
    expect(data("flux")?.status).toBe("complete");
    const history = (data("flux")?.history ?? []) as { requestId: string }[];
    expect(history.map((entry) => entry.requestId)).toEqual(["r1", "r0", "r2"]);
  });

  it("reports failed items and keeps the others' results", async () => {
    const { runner, data, runs } = linesIntoFlux();
    await runner.run("auto");
    const source = lastSource();
    source.emit("job", done(0));
    source.emit("job", done(1, { status: "FAILED", error: "Content policy", outputs: {} }));
    source.emit("job", done(2));
    expect(runs().map((run) => run.status)).toEqual(["complete", "error", "complete"]);
    expect(data("auto")).toMatchObject({
      status: "complete",
      error: "1 of 3 items failed: Content policy",
      outputs: { items: ["/api/media/file/0.png", "/api/media/file/2.png"] },
    });
  });

  it("says what is missing: items, or a generator to run them through", async () => {
    const empty = linesIntoFlux(" \n \n");
    await empty.runner.run("auto");
    expect(empty.data("auto")).toMatchObject({
      status: "error",
      error: "Missing required input: Items",
    });
    expect(empty.api.generate).not.toHaveBeenCalled();

    const alone = setupRunner(
      countingApi(),
      [
        node("t", "text", { inputValues: values({ text: "one" }) }),
        node("auto", "image-automation", { inputValues: values({ splitBy: "line" }) }),
      ],
      [wire("t", "text", "auto", "media")],
    );
    await alone.runner.run("auto");
    expect(alone.data("auto")).toMatchObject({
      status: "error",
      error: AUTOMATION_MESSAGES.noTargets,
    });
  });

  it("runs each image of a container through an image input, with the automation's prompt", async () => {
    const images = ["/api/media/file/a.png", "/api/media/file/b.png", "/api/media/file/c.png"];
    const api = countingApi();
    const { runner } = setupRunner(
      api,
      [
        node("box", "container", { outputs: { items: images } }),
        node("auto", "image-automation", {
          inputValues: values({ splitBy: "item", prompt: "in watercolour" }),
        }),
        node("edit", "gpt-image", { inputValues: values({ prompt: "" }) }),
      ],
      [wire("box", "items", "auto", "media"), wire("auto", "items", "edit", "image")],
    );
    await runner.run("auto");
    expect(api.generate.mock.calls.map(([, body]) => body.inputs)).toEqual(
      images.map((url) => ({ image: [url], prompt: "in watercolour" })),
    );
  });

  it("Run all starts the generator only through the automation, and Cancel all stops every item", async () => {
    const { runner, api, runs } = linesIntoFlux();
    const graph = runner.runGraph(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(api.generate.mock.calls.map(([, body]) => body.nodeId)).toEqual([
      "auto~0",
      "auto~1",
      "auto~2",
    ]);
    await runner.cancel("auto");
    expect(api.cancelJob).toHaveBeenCalledTimes(3);
    expect(runs().map((run) => run.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
    await expect(graph).resolves.toMatchObject({ ok: true, failed: ["auto"] });
    expect(api.generate).toHaveBeenCalledTimes(3);
  });

  it("after a reload, follows the unfinished items and applies the ends of the others", async () => {
    const before = linesIntoFlux();
    await before.runner.run("auto");
    before.runner.dispose();
    const api = {
      ...countingApi(),
      listJobs: vi.fn(async () => ({
        jobs: [done(0), job({ requestId: "r1", nodeId: "auto~1", status: "IN_PROGRESS" }), done(2)],
      })),
    };
    const after = createRunner(before.documents, {
      api,
      runs: createRunsStore(),
      showError: vi.fn(),
      workflowId: () => "wf-1",
      stream: { openEvents },
    });
    await after.resume("wf-1");
    expect(before.runs().map((run) => run.status)).toEqual(["complete", "running", "complete"]);
    expect(before.data("auto")?.status).toBe("processing");
    lastSource().emit("job", done(1));
    expect(before.data("auto")).toMatchObject({ status: "complete", runNote: "3 of 3 items done" });
  });
});
