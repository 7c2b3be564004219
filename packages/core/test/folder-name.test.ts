import { describe, expect, it } from "vitest";
import { validateFolderName } from "../src/index.ts";

describe("validateFolderName (SPEC §5)", () => {
  it.each([
    ["", "Folder name is required"],
    ["   ", "Folder name is required"],
    ["a".repeat(100), "Folder name must be less than 100 characters"],
    ["a".repeat(150), "Folder name must be less than 100 characters"],
    ...["<", ">", ":", '"', "/", "\\", "|", "?", "*"].map((char) => [
      `my${char}folder`,
      "Folder name contains invalid characters",
    ]),
    ...[
      "unfiled",
      "all",
      "shared",
      "public",
      "private",
      "trash",
      "deleted",
      "Unfiled",
      "ALL",
      "Trash ",
      "DeLeTeD",
    ].map((name) => [name, "This folder name is reserved"]),
  ])("%j → %s", (name, message) => {
    expect(validateFolderName(name)).toBe(message);
  });

  it.each(["Moodboards", "a".repeat(99), "unfiled stuff", "Trashy", "Été 2026", "2026-11 renders"])(
    "accepts %j",
    (name) => {
      expect(validateFolderName(name)).toBeNull();
    },
  );

  it("treats a missing name as required", () => {
    expect(validateFolderName(undefined)).toBe("Folder name is required");
  });
});
