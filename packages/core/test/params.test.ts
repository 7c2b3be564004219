import { describe, expect, it } from "vitest";
import { choice, flag, integer, number, params, seed, text } from "../src/catalogue/define.ts";
import { SEED_MAX } from "../src/catalogue/params.ts";

const shape = params({
  aspectRatio: choice(["16:9", "9:16"], "16:9", "Aspect ratio"),
  strength: number(0, 1, 0.5),
  steps: integer(1, 50, 28, "Steps"),
  upscale: flag(false),
  prompt: text(""),
  seed: seed(),
});

describe("node parameters", () => {
  it("fills defaults, keeps given values and drops unknown keys", () => {
    expect(shape.parse({})).toEqual({
      aspectRatio: "16:9",
      strength: 0.5,
      steps: 28,
      upscale: false,
      prompt: "",
      seed: null,
    });
    expect(
      shape.parse({ aspectRatio: "9:16", steps: 4, seed: SEED_MAX, extra: "<script>" }),
    ).toMatchObject({ aspectRatio: "9:16", steps: 4, seed: SEED_MAX });
    expect(shape.parse({ extra: 1 })).not.toHaveProperty("extra");
    expect(shape.parse(undefined)).toMatchObject({ steps: 28 });
  });

  it("names each bad value and its rule", () => {
    const bad = shape.safeParse({
      aspectRatio: "5:1",
      strength: 2,
      steps: 2.5,
      upscale: "yes",
      prompt: 3,
      seed: -1,
    });
    expect(bad.success).toBe(false);
    if (bad.success) return;
    expect(bad.error.issues).toEqual([
      { path: ["aspectRatio"], message: 'Invalid option: expected one of "16:9"|"9:16"' },
      { path: ["strength"], message: "Too big: expected a number <= 1" },
      { path: ["steps"], message: "Expected a whole number" },
      { path: ["upscale"], message: "Expected true or false" },
      { path: ["prompt"], message: "Expected text" },
      { path: ["seed"], message: `Expected null or a whole number from 0 to ${SEED_MAX}` },
    ]);
    expect(shape.safeParse({ strength: -0.1 })).toMatchObject({
      success: false,
      error: { issues: [{ path: ["strength"], message: "Too small: expected a number >= 0" }] },
    });
    expect(shape.safeParse([1])).toMatchObject({ success: false });
    expect(() => shape.parse({ steps: 0 })).toThrow("steps: Too small: expected a number >= 1");
  });

  it("keeps each field's label and limits for the node's form", () => {
    expect(shape.shape.steps).toEqual({
      kind: "number",
      min: 1,
      max: 50,
      default: 28,
      integer: true,
      description: "Steps",
    });
    expect(shape.shape.aspectRatio).toMatchObject({ kind: "choice", values: ["16:9", "9:16"] });
  });
});
