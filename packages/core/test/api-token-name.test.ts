import { describe, expect, it } from "vitest";
import { API_TOKEN_ERRORS, validateApiTokenName } from "../src/index.ts";

describe("validateApiTokenName", () => {
  it.each([
    ["", API_TOKEN_ERRORS.nameRequired],
    ["   ", API_TOKEN_ERRORS.nameRequired],
    [42, API_TOKEN_ERRORS.nameRequired],
    ["a".repeat(101), API_TOKEN_ERRORS.nameTooLong],
  ])("refuses %j", (name, message) => {
    expect(validateApiTokenName(name)).toBe(message);
  });

  it.each(["CI", "a".repeat(100), `  ${"b".repeat(100)}  `, "Render farm — nightly"])(
    "takes %j",
    (name) => {
      expect(validateApiTokenName(name)).toBeNull();
    },
  );
});
