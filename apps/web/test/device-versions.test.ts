import "fake-indexeddb/auto";
import { serializeWorkflow } from "@atelier/core";
import { beforeEach, describe, expect, it } from "vitest";
import {
  DEVICE_VERSIONS,
  DeviceVersionNotFound,
  deviceVersions,
  forgetDeviceVersions,
  recordSnapshot,
} from "../src/features/persistence/device-versions.ts";
import { localDb } from "../src/features/persistence/local-db.ts";

const ID = "local-0001";
const workflow = (prompt: string, extra = 0) =>
  serializeWorkflow(
    {
      nodes: [
        {
          id: "a",
          type: "text",
          position: { x: 0, y: 0 },
          data: { inputValues: { text: { value: prompt } } },
        },
        ...Array.from({ length: extra }, (_, index) => ({
          id: `n${index}`,
          type: "text",
          position: { x: 400 * (index + 1), y: 0 },
          data: {},
        })),
      ],
      edges: [],
      metadata: { name: "Device", id: ID },
    },
    { now: 0 },
  );

beforeEach(async () => {
  await localDb.snapshots.clear();
  await localDb.workflows.clear();
});

describe("device-only workflows keep their journal snapshots as versions", () => {
  it("numbers versions, summarizes what changed, and spaces journal snapshots a minute apart", async () => {
    await recordSnapshot(ID, workflow("one"), { saved: true, now: 0 });
    await recordSnapshot(ID, workflow("two", 2), { saved: false, now: 30_000 });
    await recordSnapshot(ID, workflow("two", 2), { saved: false, now: 61_000 });
    await recordSnapshot(ID, workflow("three", 1), { saved: false, now: 130_000 });
    // A save is always a version, however soon.
    await recordSnapshot(ID, workflow("four", 1), { saved: true, now: 131_000 });
    const { versions } = await deviceVersions.list(ID);
    expect(versions.map((version) => version.id)).toEqual([4, 3, 2, 1]);
    expect(versions.map((version) => version.summary)).toEqual([
      { added: 0, removed: 0, changed: 1 },
      { added: 0, removed: 1, changed: 1 },
      { added: 2, removed: 0, changed: 1 },
      { added: 1, removed: 0, changed: 0 },
    ]);
    expect(versions[3]?.created_at).toBe(new Date(0).toISOString());
  });

  it("keeps the last 50 unnamed snapshots and every named one", async () => {
    await recordSnapshot(ID, workflow("v1"), { saved: true, now: 0 });
    await deviceVersions.name(ID, 1, "First");
    for (let index = 2; index <= 60; index++)
      await recordSnapshot(ID, workflow(`v${index}`), { saved: true, now: index * 1000 });
    const ids = (await deviceVersions.list(ID)).versions.map((version) => version.id);
    expect(ids.slice(-3)).toEqual([12, 11, 1]);
    expect(ids).toHaveLength(DEVICE_VERSIONS.keep + 1);
    expect(ids[0]).toBe(60);
    expect(ids.at(-2)).toBe(11);
    expect(ids.at(-1)).toBe(1);
    expect((await deviceVersions.list(ID)).versions.at(-1)?.name).toBe("First");
  });

  it("restores a version as the workflow's saved state and its newest version; others are not found", async () => {
    await localDb.workflows.put({ id: ID, name: "Device", data: workflow("two"), updatedAt: 1 });
    await recordSnapshot(ID, workflow("one"), { saved: true, now: 0 });
    await recordSnapshot(ID, workflow("two"), { saved: true, now: 1000 });
    const restored = await deviceVersions.restore(ID, 1);
    expect(restored.version).toBe(3);
    const current = await deviceVersions.current(ID);
    expect(current.workflow.data.nodes[0]?.data.inputValues?.text?.value).toBe("one");
    const newest = (await deviceVersions.list(ID)).versions[0];
    expect(newest).toMatchObject({ id: 3, restored_from: 1 });
    await expect(deviceVersions.read(ID, 9)).rejects.toBeInstanceOf(DeviceVersionNotFound);
    await expect(deviceVersions.read("local-other", 1)).rejects.toThrow("Version not found");
    // Cloud workflows are not kept here.
    await recordSnapshot("wf-cloud", workflow("x"), { saved: true });
    expect((await deviceVersions.list("wf-cloud")).versions).toEqual([]);
    await forgetDeviceVersions(ID);
    expect((await deviceVersions.list(ID)).versions).toEqual([]);
  });
});
