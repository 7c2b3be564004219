import { toast } from "sonner";

/** Refusals and confirmations, bottom-right (SPEC §2). */
export const notify = {
  error: (message: string) => toast.error(message),
  info: (message: string) => toast(message),
  /** A message with one action button; it stays until acted on or dismissed. */
  action: (message: string, label: string, onClick: () => void) =>
    toast(message, { duration: Number.POSITIVE_INFINITY, action: { label, onClick } }),
};
