import type { SavedWorkflow } from "@atelier/core";
import { describe, expect, it } from "vitest";
import type { CanvasNode } from "../src/features/document/types.ts";
import { saveInBatches } from "../src/features/persistence/batch-save.ts";
import { writeExitJournal } from "../src/features/persistence/journal.ts";
import { dataUrlToBlob } from "../src/features/uploads/compress-image.ts";
import {
  findEmbeddedMedia,
  hasEmbeddedMedia,
  replaceAtPath,
  runUploadQueue,
  type UploadItem,
} from "../src/features/uploads/media-uploads.ts";
import { ApiError } from "../src/services/api.ts";
import { createAuthCache } from "../src/services/auth-cache.ts";

const png = (bytes: number) => `data:image/png;base64,${"A".repeat(Math.ceil((bytes * 4) / 3))}`;
const node = (id: string, data: CanvasNode["data"]): CanvasNode => ({
  id,
  type: "flux-pro",
  position: { x: 0, y: 0 },
  data,
});

describe("embedded media before a cloud save (SPEC §4, §9)", () => {
  it("finds data URLs above 10 KB in outputs, lists, output values and input values", () => {
    const nodes = [
      node("a", {
        outputs: { imageUrl: png(20_000), images: ["https://x/y.png", png(30_000)] },
        outputValues: { image: { value: png(11_000) } },
      }),
      node("b", {
        outputs: { isolatedAudio: { url: "data:audio/wav;base64,".concat("A".repeat(20_000)) } },
        inputValues: { image: { value: png(100) }, prompt: { value: "hi" } },
      }),
    ];
    const found = findEmbeddedMedia(nodes).map((item) => [item.nodeId, item.path]);
    expect(found).toEqual([
      ["a", ["outputs", "imageUrl"]],
      ["a", ["outputs", "images", 1]],
      ["a", ["outputValues", "image", "value"]],
      ["b", ["outputs", "isolatedAudio", "url"]],
    ]);
  });

  it("tells whether any node holds such media, looking again only at replaced nodes", () => {
    const plain = node("a", { inputValues: { prompt: { value: "hi" } } });
    const small = node("b", { outputs: { imageUrl: png(100) } });
    expect(hasEmbeddedMedia([plain, small])).toBe(false);
    // An edit replaces the node object: the new one is looked at, the old answer not reused.
    const edited = { ...small, data: { outputs: { imageUrl: png(20_000) } } };
    expect(hasEmbeddedMedia([plain, edited])).toBe(true);
    expect(hasEmbeddedMedia([plain, small])).toBe(false);
  });

  it("replaces one value and copies only the objects on its path", () => {
    const data = { label: "A", outputs: { images: ["x", "y"], text: "t" }, inputValues: {} };
    const next = replaceAtPath(data, ["outputs", "images", 1], "/api/media/file/u/w/1.png");
    expect(next.outputs).toEqual({ images: ["x", "/api/media/file/u/w/1.png"], text: "t" });
    expect(data.outputs.images[1]).toBe("y");
    expect(next.inputValues).toBe(data.inputValues);
  });

  const items = (count: number): UploadItem[] =>
    Array.from({ length: count }, (_, index) => ({
      nodeId: `n${index}`,
      path: ["outputs", "imageUrl"],
      dataUrl: png(20_000 + index),
      state: "pending",
      retries: 0,
      url: null,
    }));

  it("uploads 3 at a time and sends identical media once", async () => {
    const queue = [...items(7), { ...items(1)[0], nodeId: "copy" } as UploadItem];
    let running = 0;
    let most = 0;
    let calls = 0;
    await runUploadQueue(queue, async (item) => {
      calls++;
      running++;
      most = Math.max(most, running);
      await Promise.resolve();
      running--;
      return `/stored/${item.nodeId}`;
    });
    expect(most).toBe(3);
    expect(calls).toBe(7);
    expect(queue.every((item) => item.state === "completed")).toBe(true);
    expect(queue.at(-1)?.url).toBe("/stored/n0");
  });

  it("retries an upload 3 times, then marks it failed and keeps going", async () => {
    const queue = items(2);
    const waits: number[] = [];
    const attempts = new Map<string, number>();
    await runUploadQueue(
      queue,
      async (item) => {
        attempts.set(item.nodeId, (attempts.get(item.nodeId) ?? 0) + 1);
        if (item.nodeId === "n0") throw new Error("storage down");
        if ((attempts.get(item.nodeId) ?? 0) < 3) throw new Error("flaky");
        return "/stored/n1";
      },
      { wait: async (attempt) => void waits.push(attempt) },
    );
    expect(attempts.get("n0")).toBe(4);
    expect(queue[0]).toMatchObject({ state: "failed", retries: 3, url: null });
    expect(queue[1]).toMatchObject({ state: "completed", retries: 2, url: "/stored/n1" });
  });

  it("decodes data URLs and reports undecodable base64 with SPEC's prefix", async () => {
    const blob = dataUrlToBlob("data:text/plain;base64,aGVsbG8=");
    expect(blob.type).toBe("text/plain");
    expect(await blob.text()).toBe("hello");
    expect(() => dataUrlToBlob("data:image/png;base64,%%%")).toThrow(/^Failed to decode base64: /);
  });
});

describe("batch saving (SPEC §9: over 2 MB, batches of 20, 3 retries at 1/2/3 s)", () => {
  const workflow = (count: number) =>
    ({
      version: "1.0.0",
      nodes: Array.from({ length: count }, (_, index) => ({ id: `n${index}` })),
      edges: [],
      metadata: {},
    }) as unknown as SavedWorkflow;

  const fakeClient = (fail: (index: number, attempt: number) => unknown = () => null) => {
    const staged = new Map<number, unknown[]>();
    const attempts = new Map<number, number>();
    const log: string[] = [];
    return {
      staged,
      log,
      client: {
        async stageBatch(_id: string, _save: string, index: number, nodes: unknown[]) {
          const attempt = (attempts.get(index) ?? 0) + 1;
          attempts.set(index, attempt);
          const error = fail(index, attempt);
          if (error) throw error;
          staged.set(index, nodes);
          return {};
        },
        async commitSave(_id: string, _save: string, body: { batches: number }) {
          log.push(`commit ${body.batches}`);
          return { workflow: { id: "w1", updated_at: "t2" } as never };
        },
        async dropSave() {
          log.push("drop");
          return {};
        },
      },
    };
  };

  it("sends node batches of 20 in order, then commits their count", async () => {
    const fake = fakeClient();
    const progress: number[] = [];
    const row = await saveInBatches("w1", "Big", workflow(45), "t1", {
      client: fake.client,
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(row.updated_at).toBe("t2");
    const sizes = [...fake.staged].sort(([a], [b]) => a - b).map(([, nodes]) => nodes.length);
    expect(sizes).toEqual([20, 20, 5]);
    expect(fake.log).toEqual(["commit 3"]);
    expect(progress).toEqual([1 / 3, 2 / 3, 1]);
  });

  it("keeps 4 batches in flight, and the first final failure stops new ones", async () => {
    const fake = fakeClient();
    let inFlight = 0;
    let most = 0;
    const stage = fake.client.stageBatch;
    fake.client.stageBatch = async (...args) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return stage(...args);
    };
    await saveInBatches("w1", "Big", workflow(200), "t1", { client: fake.client });
    expect(most).toBe(4);
    expect(fake.staged.size).toBe(10);

    const refused = fakeClient((index) => (index === 2 ? new ApiError(413, "too big") : null));
    await expect(
      saveInBatches("w1", "Big", workflow(400), "t1", { client: refused.client }),
    ).rejects.toMatchObject({ status: 413 });
    expect(refused.staged.size).toBeLessThan(20);
    expect(refused.log).toEqual(["drop"]);
  });

  it("waits 1 s, 2 s, 3 s between retries and then gives SPEC's message", async () => {
    const fake = fakeClient((index) => (index === 1 ? new ApiError(503, "busy") : null));
    const waits: number[] = [];
    await expect(
      saveInBatches("w1", "Big", workflow(30), "t1", {
        client: fake.client,
        wait: async (ms) => void waits.push(ms),
      }),
    ).rejects.toThrow("Failed to save after multiple retries");
    expect(waits).toEqual([1000, 2000, 3000]);
    expect(fake.log).toEqual(["drop"]);
  });

  it("recovers when a retry succeeds", async () => {
    const fake = fakeClient((_index, attempt) =>
      attempt < 3 ? new ApiError(0, "Network error") : null,
    );
    await saveInBatches("w1", "Big", workflow(25), "t1", {
      client: fake.client,
      wait: async () => {},
    });
    expect(fake.log).toEqual(["commit 2"]);
  });

  it("passes a 409 from the commit through, and names a failed commit", async () => {
    const conflict = fakeClient();
    conflict.client.commitSave = async () => {
      throw new ApiError(409, "conflict", { updated_at: "t9" });
    };
    await expect(
      saveInBatches("w1", "Big", workflow(3), "t1", { client: conflict.client }),
    ).rejects.toMatchObject({ status: 409 });
    const broken = fakeClient();
    broken.client.commitSave = async () => {
      throw new ApiError(500, "boom");
    };
    await expect(
      saveInBatches("w1", "Big", workflow(3), "t1", { client: broken.client }),
    ).rejects.toThrow("Failed to finalize workflow save");
  });
});

describe("auth cache (SPEC §9: session 60 s, admin status 5 min)", () => {
  it("reuses the session for 60 s and the admin flag for 5 minutes", async () => {
    let now = 0;
    const calls = { session: 0, admin: 0 };
    const cache = createAuthCache(
      {
        session: async () => {
          calls.session++;
          return { id: "u1", email: "a@b.c", name: "A" };
        },
        adminStatus: async () => {
          calls.admin++;
          return { isAdmin: true };
        },
      },
      () => now,
    );
    expect(await cache.isAdmin()).toBe(true);
    now = 59_999;
    await cache.session();
    expect(calls).toEqual({ session: 1, admin: 1 });
    now = 60_000;
    await cache.session();
    expect(calls.session).toBe(2);
    now = 299_999;
    await cache.isAdmin();
    expect(calls.admin).toBe(1);
    now = 300_000;
    await cache.isAdmin();
    expect(calls.admin).toBe(2);
    cache.reset(null);
    expect(await cache.isAdmin()).toBe(false);
    expect(calls.admin).toBe(2);
  });
});

describe("exit journal (SPEC §4: a local save hitting a quota error switches to IndexedDB)", () => {
  const entry = (chars: number) => ({
    workflowId: null,
    name: "Draft",
    data: { text: "x".repeat(chars) } as unknown as SavedWorkflow,
    writtenAt: 1,
  });
  const memoryStorage = (setItem?: () => void): Storage => {
    const items = new Map<string, string>();
    return {
      get length() {
        return items.size;
      },
      clear: () => items.clear(),
      getItem: (key) => items.get(key) ?? null,
      key: (index) => [...items.keys()][index] ?? null,
      removeItem: (key) => void items.delete(key),
      setItem: (key, value) => {
        setItem?.();
        items.set(key, value);
      },
    };
  };

  it("writes to localStorage when the entry fits", () => {
    const storage = memoryStorage();
    const fallback: unknown[] = [];
    const where = writeExitJournal(entry(100), storage, async (e) => void fallback.push(e));
    expect(where).toBe("localStorage");
    expect(JSON.parse(storage.getItem("atelier.exitJournal") ?? "{}").name).toBe("Draft");
    expect(fallback).toHaveLength(0);
  });

  it("switches to IndexedDB on a quota error or above the 5 MB limit", () => {
    const full = memoryStorage(() => {
      throw new DOMException("full", "QuotaExceededError");
    });
    const fallback: unknown[] = [];
    expect(writeExitJournal(entry(100), full, async (e) => void fallback.push(e))).toBe(
      "indexedDB",
    );
    const roomy = memoryStorage();
    expect(writeExitJournal(entry(5_242_880), roomy, async (e) => void fallback.push(e))).toBe(
      "indexedDB",
    );
    expect(roomy.getItem("atelier.exitJournal")).toBeNull();
    expect(fallback).toHaveLength(2);
  });
});
