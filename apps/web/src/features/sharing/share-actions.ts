import type { ShareLink, ShareOpenResponse, ShareRole } from "@atelier/core";
import { ApiError } from "../../services/api.ts";
import { shareApi } from "../../services/share-api.ts";
import { setShareToken } from "../../services/share-session.ts";
import { sharedLinkOpened } from "../workspace/store.ts";

export type { ShareLink, ShareOpenResponse, ShareRole };

/** The server's message for a failed request, else the fallback. */
export const shareFailureMessage = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** How long a new link lasts: never, or a number of days. */
export const EXPIRY_CHOICES = [
  { label: "Never expires", days: null },
  { label: "Expires in 1 day", days: 1 },
  { label: "Expires in 7 days", days: 7 },
  { label: "Expires in 30 days", days: 30 },
] as const;

/** The link's full address on this server. */
export const linkUrl = (link: Pick<ShareLink, "path">) => `${window.location.origin}${link.path}`;

/** The owner's share links of a workflow (the Share dialog). */
export const shareActions = {
  list: async (workflowId: string) => (await shareApi.list(workflowId)).shares,
  create: async (workflowId: string, role: ShareRole, days: number | null) =>
    (
      await shareApi.create(workflowId, {
        role,
        expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString(),
      })
    ).share,
  revoke: (workflowId: string, id: string) => shareApi.revoke(workflowId, id).then(() => undefined),
  copy: (text: string): Promise<boolean> =>
    navigator.clipboard
      ? navigator.clipboard.writeText(text).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false),
};

/**
 * Opens a link for this tab: what it opens, or null when it is unknown, revoked or expired.
 * A view or edit link's token then goes with every request of the tab.
 */
export async function enterShareLink(token: string): Promise<ShareOpenResponse | null> {
  try {
    const opened = await shareApi.open(token);
    if (opened.role !== "run") {
      setShareToken(token);
      sharedLinkOpened({ role: opened.role, token });
    }
    return opened;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
