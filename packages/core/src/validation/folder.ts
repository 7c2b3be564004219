export const FOLDER_NAME_MESSAGES = {
  required: "Folder name is required",
  tooLong: "Folder name must be less than 100 characters",
  invalidCharacters: "Folder name contains invalid characters",
  reserved: "This folder name is reserved",
} as const;

export const FOLDER_NAME_MAX_LENGTH = 100;
export const RESERVED_FOLDER_NAMES = [
  "unfiled",
  "all",
  "shared",
  "public",
  "private",
  "trash",
  "deleted",
] as const;
const INVALID_CHARACTERS = /[<>:"/\\|?*]/;

/** Returns null for a valid folder name, else SPEC §5's message. Surrounding spaces are ignored. */
export function validateFolderName(name: unknown): string | null {
  const trimmed = typeof name === "string" ? name.trim() : "";
  if (trimmed.length === 0) return FOLDER_NAME_MESSAGES.required;
  if (trimmed.length >= FOLDER_NAME_MAX_LENGTH) return FOLDER_NAME_MESSAGES.tooLong;
  if (INVALID_CHARACTERS.test(trimmed)) return FOLDER_NAME_MESSAGES.invalidCharacters;
  if ((RESERVED_FOLDER_NAMES as readonly string[]).includes(trimmed.toLowerCase())) {
    return FOLDER_NAME_MESSAGES.reserved;
  }
  return null;
}
