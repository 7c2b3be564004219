import { describe, expect, it } from "vitest";
import { validateMediaInput } from "../src/index.ts";

describe("validateMediaInput (SPEC §5)", () => {
  it.each([
    "https://cdn.example.com/a.png",
    "http://example.com/x?y=1#z",
    "data:image/png;base64,iVBORw0KGgo=",
    "data:video/mp4;base64,AAAA",
  ])("accepts %s", (value) => {
    expect(validateMediaInput(value)).toBeNull();
  });

  it.each([
    ["ftp://example.com/a.png", "Invalid media data: must be URL or base64 data URL"],
    ["iVBORw0KGgo=", "Invalid media data: must be URL or base64 data URL"],
    ["javascript:alert(1)", "Invalid media data: must be URL or base64 data URL"],
    ["https://", "Invalid media data: must be URL or base64 data URL"],
    ["", "Invalid media data: must be URL or base64 data URL"],
    [42, "Invalid media data: must be URL or base64 data URL"],
    [null, "Invalid media data: must be URL or base64 data URL"],
    ["data:image/png;base64", "Invalid base64 string: missing data URL prefix"],
    ["data:image/png;base64,", "Invalid base64 string: missing data content"],
  ])("refuses %j with %s", (value, message) => {
    expect(validateMediaInput(value)).toBe(message);
  });
});
