import { BLOCKED_MEDIA } from "./safe-url.ts";

/** Said in place of media whose address the allow-list dropped (`count` of them). */
export function BlockedNote({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <p className="media-blocked" role="note">
      {count === 1 ? BLOCKED_MEDIA : `Blocked ${count} unsafe media addresses`}
    </p>
  );
}
