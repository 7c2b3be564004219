import { cropRect } from "@atelier/core";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dragCrop, nudgeCrop } from "../src/features/nodes/special/processing/crop-drag.ts";
import { fakeCanvas, fakeImages, IMAGE_URL, showPreview } from "./processing-fakes.tsx";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const size = { width: 160, height: 120 };
const full = { x: 0, y: 0, width: 160, height: 120 };

describe("crop box math", () => {
  it("moves the box and stops it at the image's edges", () => {
    const box = { x: 40, y: 30, width: 80, height: 60 };
    expect(dragCrop(box, "move", 10.4, -5.6, size)).toEqual({ ...box, x: 50, y: 24 });
    expect(dragCrop(box, "move", 500, 500, size)).toEqual({ ...box, x: 80, y: 60 });
    expect(dragCrop(box, "move", -500, -500, size)).toEqual({ ...box, x: 0, y: 0 });
  });

  it("resizes from a corner, never past the opposite one nor below 1 %", () => {
    expect(dragCrop(full, "se", -80, -30, size)).toEqual({ x: 0, y: 0, width: 80, height: 90 });
    expect(dragCrop(full, "nw", 20, 10, size)).toEqual({ x: 20, y: 10, width: 140, height: 110 });
    expect(dragCrop(full, "ne", 40, 5, size)).toEqual({ x: 0, y: 5, width: 160, height: 115 });
    // Dragged through the opposite corner: held at the minimum (2 px of 160, 2 px of 120).
    expect(dragCrop(full, "sw", 400, -400, size)).toEqual({ x: 158, y: 0, width: 2, height: 2 });
  });

  it("nudges with the arrow keys, 1 px or 10 px with Shift, and ignores other keys", () => {
    const box = { x: 40, y: 30, width: 80, height: 60 };
    expect(nudgeCrop(box, "move", "ArrowRight", false, size)).toEqual({ ...box, x: 41 });
    expect(nudgeCrop(box, "move", "ArrowUp", true, size)).toEqual({ ...box, y: 20 });
    expect(nudgeCrop(box, "se", "ArrowLeft", true, size)).toEqual({ ...box, width: 70 });
    expect(nudgeCrop(box, "nw", "ArrowDown", false, size)).toEqual({
      x: 40,
      y: 31,
      width: 80,
      height: 59,
    });
    expect(nudgeCrop(box, "move", "Enter", false, size)).toBeNull();
  });
});

describe("crop editor", () => {
  beforeEach(() => {
    fakeImages(160, 120);
    fakeCanvas((w, h) => new Uint8ClampedArray(w * h * 4).fill(255));
  });

  const handle = (name: string) =>
    screen.getByRole("button", { name: new RegExp(`^Crop ${name}`) });
  const cropSize = () => screen.getByRole("status", { name: "Crop size" }).textContent;

  it("shows the wired image with the crop's size in pixels", async () => {
    showPreview("crop", { left: 0.25, top: 0, width: 0.5, height: 1 });
    expect(await screen.findByRole("img", { name: "Source image" })).toBeTruthy();
    expect(cropSize()).toBe("80 × 120 px");
    expect(screen.getByText("of 160 × 120", { exact: false })).toBeTruthy();
  });

  it("drags a corner live, and writes the parameters once, on release (one undo step)", async () => {
    const { store, params } = showPreview("crop", { left: 0, top: 0, width: 1, height: 1 });
    await screen.findByRole("img", { name: "Source image" });
    // happy-dom lays nothing out: the preview's own scale applies (180 px / 120 px = 1.5).
    const corner = handle("bottom-right");
    fireEvent.pointerDown(corner, { pointerId: 1, button: 0, clientX: 240, clientY: 180 });
    fireEvent.pointerMove(corner, { pointerId: 1, clientX: 180, clientY: 150 });
    expect(cropSize()).toBe("120 × 100 px");
    expect(params()).toMatchObject({ width: 1, height: 1 });
    fireEvent.pointerMove(corner, { pointerId: 1, clientX: 120, clientY: 120 });
    fireEvent.pointerUp(corner, { pointerId: 1, clientX: 120, clientY: 120 });
    expect(cropSize()).toBe("80 × 80 px");
    expect(params()).toMatchObject({ left: 0, top: 0, width: 0.5, height: 0.666667 });
    expect(cropRect({ width: 160, height: 120 }, params() as never)).toEqual({
      x: 0,
      y: 0,
      width: 80,
      height: 80,
    });
    let undone: string | null = null;
    act(() => {
      undone = store.getState().undo();
    });
    expect(undone).toBe("Edit");
    expect(params()).toMatchObject({ width: 1, height: 1 });
    expect(cropSize()).toBe("160 × 120 px");
  });

  it("moves the box by dragging it, and cancels a drag the browser takes away", async () => {
    const { params } = showPreview("crop", { left: 0, top: 0, width: 0.5, height: 0.5 });
    await screen.findByRole("img", { name: "Source image" });
    const box = screen.getByRole("button", { name: /^Crop area/ });
    fireEvent.pointerDown(box, { pointerId: 7, button: 0, clientX: 10, clientY: 10 });
    fireEvent.pointerMove(box, { pointerId: 7, clientX: 40, clientY: 25 });
    fireEvent.pointerCancel(box, { pointerId: 7 });
    expect(params()).toMatchObject({ left: 0, top: 0 });
    fireEvent.pointerDown(box, { pointerId: 8, button: 0, clientX: 10, clientY: 10 });
    fireEvent.pointerUp(box, { pointerId: 8, clientX: 40, clientY: 25 });
    expect(params()).toMatchObject({ left: 0.125, top: 0.083333, width: 0.5, height: 0.5 });
    // A right-button press starts nothing.
    fireEvent.pointerDown(box, { pointerId: 9, button: 2, clientX: 0, clientY: 0 });
    fireEvent.pointerUp(box, { pointerId: 9, clientX: 90, clientY: 90 });
    expect(params()).toMatchObject({ left: 20 / 160 });
  });

  it("nudges the focused box or corner with the arrow keys", async () => {
    const { params } = showPreview("crop", {});
    await screen.findByRole("img", { name: "Source image" });
    fireEvent.keyDown(handle("top-left"), { key: "ArrowRight", shiftKey: true });
    expect(cropSize()).toBe("150 × 120 px");
    expect(params()).toMatchObject({ left: 10 / 160, width: 150 / 160 });
    const box = screen.getByRole("button", { name: /^Crop area/ });
    fireEvent.keyDown(box, { key: "ArrowLeft" });
    expect(params()).toMatchObject({ left: 9 / 160, width: 150 / 160 });
    const before = params();
    fireEvent.keyDown(box, { key: "a" });
    expect(params()).toEqual(before);
  });

  it("invites a connection, and explains a source that cannot load", async () => {
    const view = showPreview("crop", {}, false);
    expect(screen.getByText("Connect an image to preview the crop.")).toBeTruthy();
    view.unmount();
    fakeImages(160, 120, [IMAGE_URL]);
    showPreview("crop", {});
    expect((await screen.findByRole("alert")).textContent).toBe(
      "The source image could not be loaded for the preview.",
    );
  });
});
