import type { Readable } from "node:stream";

export interface StoredBlob {
  body: Readable;
  size: number;
}

/** Where uploaded and generated files live: a directory, or an S3-compatible bucket. */
export interface BlobStore {
  readonly kind: "fs" | "s3";
  /** Writes a file; refuses to overwrite an existing key. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredBlob | null>;
  delete(keys: readonly string[]): Promise<void>;
  list(prefix: string): Promise<string[]>;
  /** True when the store answers. */
  ping(): Promise<boolean>;
}

/** Keys are relative, slash-separated and never climb out of the bucket. */
export function assertSafeKey(key: string): void {
  if (
    !key ||
    key.startsWith("/") ||
    key.split("/").some((part) => part === "" || part === "." || part === "..")
  ) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
