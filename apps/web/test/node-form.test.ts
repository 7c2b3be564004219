import { describe, expect, it } from "vitest";
import { shortcutFor } from "../src/features/canvas/shortcuts.ts";
import { fieldsOf } from "../src/features/nodes/schema-fields.ts";

describe("parameter forms from the catalogue's schemas", () => {
  it("chooses a control for every parameter", () => {
    const fields = new Map(fieldsOf("flux-pro").map((field) => [field.name, field]));
    expect(fields.get("prompt")).toMatchObject({ kind: "textarea", essential: true });
    expect(fields.get("imageSize")).toMatchObject({
      kind: "select",
      options: expect.arrayContaining(["landscape_4_3"]),
    });
    expect(fields.get("numImages")).toMatchObject({ kind: "number", min: 1, max: 4, step: 1 });
    expect(fields.get("raw")).toMatchObject({ kind: "toggle", essential: false });
    expect(fields.get("seed")).toMatchObject({ kind: "seed" });
  });
});

describe("keyboard shortcuts", () => {
  const press = (
    key: string,
    modifiers: Partial<KeyboardEvent> = {},
    target: Partial<HTMLElement> = { tagName: "DIV", isContentEditable: false },
  ) =>
    shortcutFor({
      key,
      ctrlKey: false,
      metaKey: false,
      shiftKey: false,
      altKey: false,
      target,
      ...modifiers,
    } as unknown as KeyboardEvent);

  it("maps keys to actions", () => {
    expect(press("d", { ctrlKey: true })).toBe("duplicate");
    expect(press("D", { metaKey: true })).toBe("duplicate");
    expect(press("g", { ctrlKey: true })).toBe("group");
    expect(press("G", { ctrlKey: true, shiftKey: true })).toBe("ungroup");
    expect(press("z", { ctrlKey: true })).toBe("undo");
    expect(press("Z", { ctrlKey: true, shiftKey: true })).toBe("redo");
    expect(press("y", { ctrlKey: true })).toBe("redo");
    expect(press("?", { shiftKey: true })).toBe("help");
    expect(press("f")).toBe("fitView");
    expect(press("x")).toBeNull();
  });

  it("leaves typing alone", () => {
    expect(
      press("d", { ctrlKey: true }, { tagName: "TEXTAREA", isContentEditable: false }),
    ).toBeNull();
    expect(press("f", {}, { tagName: "INPUT", isContentEditable: false })).toBeNull();
  });
});
