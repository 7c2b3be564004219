import type { Readable } from "node:stream";
import { LIMITS } from "@atelier/core";
import type { S3Client } from "@aws-sdk/client-s3";
import { assertSafeKey, type BlobStore } from "./blob-store.ts";

export interface S3Options {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** A client for the bucket the options name, as every part of the server makes it. */
export function s3Client(Client: typeof S3Client, options: S3Options): S3Client {
  return new Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // Many S3-compatible servers reject the SDK's default extra checksums.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** Any S3-compatible bucket (AWS, MinIO, R2, …). */
export async function createS3Store(options: S3Options): Promise<BlobStore> {
  // Loaded only where a bucket is configured: the SDK is a third of a second of every start.
  const {
    CreateBucketCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadBucketCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    S3Client,
  } = await import("@aws-sdk/client-s3");
  const client = s3Client(S3Client, options);
  const Bucket = options.bucket;
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch {
    await client.send(new CreateBucketCommand({ Bucket }));
  }
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertSafeKey(key);
      // Not every S3-compatible server honours If-None-Match, so look first as well.
      const exists = await client.send(new HeadObjectCommand({ Bucket, Key: key })).then(
        () => true,
        () => false,
      );
      if (exists) throw new Error(`Storage key already exists: ${key}`);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: body,
          ContentType: contentType,
          CacheControl: `max-age=${LIMITS.upload.cacheControlSeconds}`,
          IfNoneMatch: "*",
        }),
      );
    },
    async get(key) {
      assertSafeKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!answer.Body) return null;
        return { body: answer.Body as Readable, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if ((error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },
    async delete(keys) {
      for (let start = 0; start < keys.length; start += 1000) {
        const batch = keys.slice(start, start + 1000);
        batch.forEach(assertSafeKey);
        await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket,
            Prefix: prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
      return true;
    },
  };
}
