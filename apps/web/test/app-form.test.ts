import { APP_LIMITS, APP_MESSAGES, type AppFormField, SEED_MAX } from "@atelier/core";
import { describe, expect, it } from "vitest";
import { uploadKindOf } from "../src/features/apps/app-actions.ts";
import { buildValues, initialDraft, rollSeed } from "../src/features/apps/form-values.ts";
import { outputShown } from "../src/features/apps/output-media.ts";

/** A form as the server draws one (GET /api/apps/{slug}). */
const FIELDS: AppFormField[] = [
  { id: "prompt/text", label: "Style", input: { type: "text", multiline: true, default: "ink" } },
  {
    id: "edit/aspectRatio",
    label: "Shape",
    input: { type: "select", options: ["1:1", "16:9"], default: "1:1" },
  },
  {
    id: "edit/guidanceScale",
    label: "Guidance",
    input: { type: "number", min: 1, max: 20, integer: false, default: 3.5 },
  },
  {
    id: "edit/numImages",
    label: "Images",
    input: { type: "number", min: 1, max: 4, integer: true, default: 1 },
  },
  { id: "edit/enhancePrompt", label: "Enhance", input: { type: "flag", default: false } },
  { id: "edit/seed", label: "Seed", input: { type: "seed", default: null } },
  { id: "photo/file", label: "Photo", input: { type: "media", accept: "image/*" } },
];
const PHOTO = "/api/media/file/u/temporary/1-a.png";

describe("the app form's values", () => {
  it("starts from the published defaults, numbers and seeds as text, no file", () => {
    expect(initialDraft(FIELDS)).toEqual({
      "prompt/text": "ink",
      "edit/aspectRatio": "1:1",
      "edit/guidanceScale": "3.5",
      "edit/numImages": "1",
      "edit/enhancePrompt": false,
      "edit/seed": "",
      "photo/file": "",
    });
    expect(
      initialDraft([{ id: "s", label: "Seed", input: { type: "seed", default: 42 } }]),
    ).toEqual({ s: "42" });
  });

  it("builds the run request's typed values: an empty seed is random (null)", () => {
    const draft = { ...initialDraft(FIELDS), "photo/file": PHOTO, "edit/guidanceScale": " 7.5 " };
    expect(buildValues(FIELDS, draft)).toEqual({
      ok: true,
      values: {
        "prompt/text": "ink",
        "edit/aspectRatio": "1:1",
        "edit/guidanceScale": 7.5,
        "edit/numImages": 1,
        "edit/enhancePrompt": false,
        "edit/seed": null,
        "photo/file": PHOTO,
      },
    });
    const seeded = buildValues(FIELDS, {
      ...draft,
      "edit/seed": "1234",
      "edit/enhancePrompt": true,
    });
    expect(seeded.ok && seeded.values["edit/seed"]).toBe(1234);
    expect(seeded.ok && seeded.values["edit/enhancePrompt"]).toBe(true);
  });

  it("names each field's problem in the server's words before anything is sent", () => {
    const built = buildValues(FIELDS, {
      ...initialDraft(FIELDS),
      "edit/guidanceScale": "25",
      "edit/numImages": "1.5",
      "edit/seed": "-3",
      "edit/aspectRatio": "2:1",
    });
    expect(built).toEqual({
      ok: false,
      problems: {
        "edit/guidanceScale": APP_MESSAGES.badValue("Guidance", "Too big: expected a number <= 20"),
        "edit/numImages": APP_MESSAGES.badValue("Images", "Expected a whole number"),
        "edit/seed": APP_MESSAGES.badValue(
          "Seed",
          `Expected null or a whole number from 0 to ${SEED_MAX}`,
        ),
        "edit/aspectRatio": APP_MESSAGES.badValue(
          "Shape",
          'Invalid option: expected one of "1:1"|"16:9"',
        ),
        "photo/file": APP_MESSAGES.mediaRequired("Photo"),
      },
    });
  });

  it("refuses an empty number and an over-long text", () => {
    const built = buildValues(FIELDS, {
      ...initialDraft(FIELDS),
      "photo/file": PHOTO,
      "edit/guidanceScale": "  ",
      "prompt/text": "x".repeat(APP_LIMITS.textLength + 1),
    });
    expect(built).toEqual({
      ok: false,
      problems: {
        "edit/guidanceScale": APP_MESSAGES.badValue("Guidance", "Expected a number"),
        "prompt/text": APP_MESSAGES.badValue(
          "Style",
          `at most ${APP_LIMITS.textLength} characters`,
        ),
      },
    });
  });

  it("rolls seeds the models take", () => {
    expect(rollSeed(() => 0)).toBe("0");
    expect(rollSeed(() => 0.999_999_999_99)).toBe(String(SEED_MAX));
    const seed = Number(rollSeed());
    expect(Number.isInteger(seed) && seed >= 0 && seed <= SEED_MAX).toBe(true);
  });

  it("checks an upload as the field's kind", () => {
    expect(uploadKindOf("image/*")).toBe("image");
    expect(uploadKindOf("video/*")).toBe("video");
    expect(uploadKindOf("audio/*")).toBe("audio");
    expect(uploadKindOf(".glb,.gltf")).toBe("3d");
  });
});

describe("a run's outputs on the page", () => {
  it("shows our media by kind, other text as text, and never an unsafe address", () => {
    expect(outputShown("/api/media/file/u/w/1-a.png")).toEqual({
      kind: "image",
      src: "/api/media/file/u/w/1-a.png",
    });
    expect(outputShown("/api/media/file/u/w/1-a.mp4")).toMatchObject({ kind: "video" });
    expect(outputShown("/api/media/file/u/w/1-a.mp3")).toMatchObject({ kind: "audio" });
    expect(outputShown("/api/media/file/u/w/1-a.glb")).toMatchObject({ kind: "model" });
    expect(outputShown("a watercolour harbour")).toEqual({
      kind: "text",
      text: "a watercolour harbour",
    });
    expect(outputShown("javascript:alert(1)")).toEqual({
      kind: "text",
      text: "javascript:alert(1)",
    });
    expect(outputShown("data:text/html,<script>alert(1)</script>")).toEqual({ kind: "blocked" });
    // Our own origin serves only media to a page.
    expect(outputShown(`${location.origin}/api/workflows/x.png`)).toEqual({ kind: "blocked" });
  });
});
