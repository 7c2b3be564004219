import { toast } from "sonner";

/** Refusals and confirmations, bottom-right (SPEC §2). */
export const notify = {
  error: (message: string) => toast.error(message),
  info: (message: string) => toast(message),
};
