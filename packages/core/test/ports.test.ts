import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATALOGUE_INPUT_TYPES, canConnectTypes, PORT_TYPES, type PortType } from "../src/index.ts";

/** SPEC §5 in words: same type, either side any, number→text, boolean→text. */
function specAllows(source: PortType, target: PortType): boolean {
  return (
    source === target ||
    source === "any" ||
    target === "any" ||
    (target === "text" && (source === "number" || source === "boolean"))
  );
}

describe("port types", () => {
  it("has exactly the nine data types of SPEC §3", () => {
    expect([...PORT_TYPES]).toEqual([
      "text",
      "image",
      "video",
      "audio",
      "number",
      "boolean",
      "array",
      "object",
      "any",
    ]);
    expect([...CATALOGUE_INPUT_TYPES]).toEqual([
      "text",
      "image",
      "video",
      "audio",
      "number",
      "object",
      "any",
    ]);
  });

  it.each([
    ["text", "text", true],
    ["image", "image", true],
    ["any", "video", true],
    ["audio", "any", true],
    ["number", "text", true],
    ["boolean", "text", true],
    ["text", "number", false],
    ["text", "boolean", false],
    ["image", "video", false],
    ["video", "image", false],
    ["number", "boolean", false],
    ["array", "image", false],
    ["object", "text", false],
    ["audio", "video", false],
  ] as const)("%s → %s is %s", (source, target, allowed) => {
    expect(canConnectTypes(source, target)).toBe(allowed);
  });

  it("accepts no pair outside the compatibility rule (all 81 pairs, and random draws)", () => {
    for (const source of PORT_TYPES) {
      for (const target of PORT_TYPES)
        expect(canConnectTypes(source, target)).toBe(specAllows(source, target));
    }
    const portType = fc.constantFrom(...PORT_TYPES);
    fc.assert(
      fc.property(
        portType,
        portType,
        (source, target) => canConnectTypes(source, target) === specAllows(source, target),
      ),
    );
  });
});
