import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { type S3Options, s3Client } from "../../storage/s3-store.ts";

export interface ListedObject {
  key: string;
  size: number;
}

/**
 * Every object key in the bucket with its size, through a client made as the store's is.
 */
export async function listBucket(options: S3Options): Promise<ListedObject[]> {
  const client = s3Client(S3Client, options);
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
