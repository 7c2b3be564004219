import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import type { S3Options } from "../../storage/s3-store.ts";

export interface ListedObject {
  key: string;
  size: number;
}

/**
 * Every object key in the bucket with its size. The client is set up as the store's is
 * (storage/s3-store.ts), with the same relaxed checksums for S3-compatible servers.
 */
export async function listBucket(options: S3Options): Promise<ListedObject[]> {
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const objects: ListedObject[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: options.bucket,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) objects.push({ key: item.Key, size: item.Size ?? 0 });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return objects;
}

/** Objects of the backup's listing the bucket lacks, or holds at another size. */
export function missingObjects(
  listed: readonly ListedObject[],
  present: readonly ListedObject[],
): ListedObject[] {
  const sizes = new Map(present.map((object) => [object.key, object.size]));
  return listed.filter((object) => sizes.get(object.key) !== object.size);
}
