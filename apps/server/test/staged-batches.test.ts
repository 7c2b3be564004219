import { describe, expect, it } from "vitest";
import { OwnedSaves, utf8Lines } from "../src/commands/workflow-storage/staged-batches-store.ts";

describe("staged batches: reading lines back", () => {
  it("gives each line's text and its size in UTF-8 bytes", () => {
    const texts = ['["a","b"]', '{"label":"Nœud — 東京 🎨"}', "", '{"x":"\\n"}'];
    const lines = utf8Lines(Buffer.from(texts.join("\n")));
    expect(lines.map((line) => line.text)).toEqual(texts);
    expect(lines.map((line) => line.bytes)).toEqual(texts.map((text) => Buffer.byteLength(text)));
  });
});

describe("staged batches: saves known to be the user's", () => {
  const ids = { userId: "alice", workflowId: "w1", saveId: "s1" };
  const counter = () => {
    const calls: string[] = [];
    return { calls, lookup: (name: string) => async () => void calls.push(name) };
  };

  it("looks a save's workflow up once, and again after forgetting or lapsing", async () => {
    const owned = new OwnedSaves(1_000);
    const { calls, lookup } = counter();
    await owned.check(ids, lookup("first"), 0);
    await owned.check(ids, lookup("cached"), 999);
    expect(calls).toEqual(["first"]);
    await owned.check(ids, lookup("lapsed"), 1_000);
    owned.forget(ids);
    await owned.check(ids, lookup("forgotten"), 1_001);
    expect(calls).toEqual(["first", "lapsed", "forgotten"]);
  });

  it("never answers for another user, workflow or save", async () => {
    const owned = new OwnedSaves(60_000);
    const { calls, lookup } = counter();
    await owned.check(ids, lookup("alice"), 0);
    await owned.check({ ...ids, userId: "bob" }, lookup("bob"), 1);
    await owned.check({ ...ids, workflowId: "w2" }, lookup("w2"), 2);
    await owned.check({ ...ids, saveId: "s2" }, lookup("s2"), 3);
    expect(calls).toEqual(["alice", "bob", "w2", "s2"]);
  });

  it("remembers nothing when the lookup fails", async () => {
    const owned = new OwnedSaves(60_000);
    const missing = async () => {
      throw new Error("Workflow not found");
    };
    await expect(owned.check(ids, missing, 0)).rejects.toThrow("Workflow not found");
    await expect(owned.check(ids, missing, 1)).rejects.toThrow("Workflow not found");
  });

  it("stays within its size, dropping the oldest entries", async () => {
    const owned = new OwnedSaves(60_000, 10);
    const { calls, lookup } = counter();
    for (let index = 0; index < 25; index++)
      await owned.check({ ...ids, saveId: `s${index}` }, lookup(`s${index}`), index);
    expect(owned.size).toBeLessThanOrEqual(10);
    await owned.check({ ...ids, saveId: "s24" }, lookup("again"), 30);
    expect(calls.at(-1)).toBe("s24");
  });
});
